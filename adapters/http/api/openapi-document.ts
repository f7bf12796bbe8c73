import { OpenApi } from "effect/http-api"
import { declareBearerSecurity } from "./bearer-security.ts"
import { declareIdempotency } from "./idempotency-openapi.ts"
import { queryDocs } from "./list-query.ts"
import { declareOrganizationHeader } from "./organization-header-openapi.ts"
import { declarePermissions } from "./permission-openapi.ts"
import { RosterApi } from "./roster-api.ts"
import { declareSessionHeader } from "./session-header-openapi.ts"

type Operation = {
  operationId?: string
  parameters?: Array<{ name: string; in: string; description?: string; schema?: { format?: string } }>
  security?: unknown
  requestBody?: { required?: boolean }
}

type Document = ReturnType<typeof OpenApi.fromApi> & {
  servers?: ReadonlyArray<{ url: string; description: string }>
}

/**
 * Completes the generated document with what is the server's, not an endpoint's: where it answers,
 * its license, the query parameters' texts, idempotency, the security of the mode it runs in and the
 * permission each operation needs.
 * Each operation's summary, examples and links are declared on its endpoint (`documented`).
 */
const complete = (generated: Document, options: { readonly openLocal: boolean }) => {
  // This transform replaces RosterApi's own, which declares the bearer scheme: in secure mode, do that first.
  const document = options.openLocal ? generated : declareBearerSecurity(RosterApi, generated)
  document.servers = [{ url: "/", description: "This server" }]
  Object.assign(document.info, { license: { name: "MIT", identifier: "MIT" } })
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path as Record<string, Operation>)) {
      for (const parameter of operation.parameters ?? []) {
        const docs = parameter.in === "query" ? queryDocs[parameter.name] : undefined
        if (docs === undefined) continue
        parameter.description = docs.description
        if (docs.format !== undefined && parameter.schema !== undefined) parameter.schema.format = docs.format
      }
      if (options.openLocal) delete operation.security
      // An empty delivery is acknowledged (a provider's connectivity check), so the body is optional.
      if (operation.operationId === "payments.webhook" && operation.requestBody !== undefined) {
        operation.requestBody.required = false
      }
    }
  }
  declareOrganizationHeader(
    document.paths as unknown as Parameters<typeof declareOrganizationHeader>[0],
    document.components as Parameters<typeof declareOrganizationHeader>[1]
  )
  declareSessionHeader(document.paths as unknown as Parameters<typeof declareSessionHeader>[0])
  declareIdempotency(
    document.paths as unknown as Parameters<typeof declareIdempotency>[0],
    document.components as Parameters<typeof declareIdempotency>[1]
  )
  declarePermissions(RosterApi, document)
  if (options.openLocal) delete (document.components as { securitySchemes?: unknown }).securitySchemes
  return document
}

/**
 * The API as documented in the mode the server runs in (in open local mode no operation requires
 * credentials, so none declares a security requirement): the JSON document and the docs page are
 * both generated from it, so they cannot differ.
 */
export const documentedApi = (options: { readonly openLocal: boolean }) =>
  RosterApi.annotate(OpenApi.Transform, (document) => complete(document as Document, options))

/** The OpenAPI document of the mode; build it once at start. */
export const openApiDocument = (options: { readonly openLocal: boolean }) =>
  OpenApi.fromApi(documentedApi(options))
