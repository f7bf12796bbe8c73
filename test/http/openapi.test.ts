import { Context } from "effect"
import { HttpApi, OpenApi } from "effect/http-api"
import { beforeAll, describe, expect, it } from "vitest"
import { RosterApi } from "../../adapters/http/api/index.ts"
import { RequiresPermission } from "../../adapters/http/api/middleware.ts"
import { PermissionCatalog } from "../../core/index.ts"
import { startApi } from "../support/http.ts"

// biome-ignore lint/suspicious/noExplicitAny: the document is inspected as plain JSON
let document: any

beforeAll(async () => {
  // Secure mode: the document is public, like health and login.
  const api = await startApi()
  const answer = await api.call("GET", "/api/v1/openapi.json")
  expect(answer.status).toBe(200)
  document = answer.body
})

const operation = (method: string, path: string) => document.paths[path]?.[method]

/** An operation of the document, as far as its examples go. */
interface DocumentedOperation {
  readonly operationId: string
  readonly parameters?: ReadonlyArray<{
    readonly name: string
    readonly in: string
    readonly example?: unknown
  }>
  readonly requestBody?: { readonly content?: Record<string, { readonly example?: unknown }> }
}

const contract = [
  ["post", "/api/v1/team/add"],
  ["post", "/api/v1/team/role/add"],
  ["post", "/api/v1/pricing/subscribe"],
  ["post", "/api/v1/admin/toggle-account-status"],
  ["delete", "/api/v1/team/role-permission-detail/{id}"],
  ["post", "/api/v1/payments/webhook"],
  ["post", "/api/v1/auth/login"],
  ["post", "/api/v1/auth/logout"],
  ["get", "/api/v1/auth/me"],
  ["get", "/api/v1/team/members"],
  ["get", "/api/v1/team/members/{id}"],
  ["get", "/api/v1/team/roles"],
  ["get", "/api/v1/team/roles/{id}"],
  ["patch", "/api/v1/team/roles/{id}"],
  ["delete", "/api/v1/team/roles/{id}"],
  ["patch", "/api/v1/team/members/{id}"],
  ["delete", "/api/v1/team/members/{id}"],
  ["post", "/api/v1/auth/password"],
  ["post", "/api/v1/admin/members/{id}/password"],
  ["get", "/api/v1/audit/events"],
  ["get", "/api/v1/team/permissions"],
  ["post", "/api/v1/team/role-permission-detail"],
  ["get", "/api/v1/team/role-permission-detail/{id}"],
  ["get", "/api/v1/pricing/plans"],
  ["get", "/api/v1/pricing/subscription"],
  ["delete", "/api/v1/pricing/subscription"],
  ["get", "/health/live"],
  ["get", "/health/ready"]
] as const

/** A protected operation takes a bearer token, or the console's cookie. */
const everyScheme = [{ bearer: [] }, { roster_session: [] }]

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 and describes every endpoint of the contract", () => {
    expect(document.openapi).toMatch(/^3\.1\./)
    for (const [method, path] of contract) expect(operation(method, path), `${method} ${path}`).toBeDefined()
  })

  it("declares JSON bodies under application/json and */*, as the server accepts them", () => {
    const withoutBody = new Set([
      "post /api/v1/auth/logout",
      "delete /api/v1/team/roles/{id}",
      "delete /api/v1/team/members/{id}",
      "delete /api/v1/pricing/subscription"
    ])
    const withBody = contract.filter(
      ([method, path]) => method !== "get" && !withoutBody.has(`${method} ${path}`)
    )
    for (const [method, path] of withBody) {
      const content = operation(method, path).requestBody.content
      expect(Object.keys(content).sort(), `${method} ${path}`).toEqual(["*/*", "application/json"])
      expect(content["*/*"].schema, `${method} ${path}`).toEqual(content["application/json"].schema)
    }
    expect(operation("post", "/api/v1/auth/logout").requestBody).toBeUndefined()
    const addMember = operation("post", "/api/v1/team/add").requestBody.content["*/*"].schema
    expect(addMember.required.sort()).toEqual(["activestatus", "email", "password", "roleId", "username"])
    expect(addMember.additionalProperties).toBe(false)
    // An empty delivery is acknowledged, so the webhook's body is optional; every other body is required.
    expect(operation("post", "/api/v1/payments/webhook").requestBody.required).toBe(false)
    expect(operation("post", "/api/v1/team/add").requestBody.required).toBe(true)
  })

  it("gives every operation a summary and every tag a description, and names its servers and license", () => {
    for (const [method, path] of contract)
      expect(operation(method, path).summary, `${method} ${path}`).toMatch(/^[A-Z]/)
    for (const item of Object.values<Record<string, { summary?: string }>>(document.paths))
      for (const declared of Object.values(item)) expect(declared.summary).toMatch(/^[A-Z]/)
    for (const tag of document.tags) expect(tag.description, tag.name).toMatch(/^[A-Z]/)
    expect(document.servers).toEqual([{ url: "/", description: "This server" }])
    expect(document.info.license).toEqual({ name: "MIT", identifier: "MIT" })
  })

  it("shows, for every operation with a body or path parameters, an example the service accepts as valid", async () => {
    const api = await startApi({ mode: "open" })
    const examples: Array<string> = []
    for (const [path, item] of Object.entries<Record<string, DocumentedOperation>>(document.paths)) {
      for (const [method, declared] of Object.entries(item)) {
        // Each takes what only its sender can sign: the payment provider's event, an IdP's response.
        if (declared.operationId === "payments.webhook" || declared.operationId === "ssoBrowser.samlAcs")
          continue
        const parameters = (declared.parameters ?? []).filter((parameter) => parameter.in === "path")
        const body = declared.requestBody?.content?.["*/*"]?.example
        if (parameters.length === 0 && declared.requestBody === undefined) continue
        for (const parameter of parameters)
          expect(parameter.example, `${method} ${path} ${parameter.name}`).toBeDefined()
        if (declared.requestBody !== undefined) expect(body, `${method} ${path}`).toBeDefined()
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
          encodeURIComponent(String(parameters.find((parameter) => parameter.name === name)?.example))
        )
        const answer = await api.call(method.toUpperCase(), url, body === undefined ? {} : { body })
        // Valid is not found: the example may name what this fresh service does not hold.
        expect([400, 500, 501].includes(answer.status), `${method} ${path}: ${answer.text}`).toBe(false)
        examples.push(`${method} ${path}`)
      }
    }
    expect(examples).toContain("post /api/v1/team/add")
    expect(examples).toContain("delete /api/v1/team/role-permission-detail/{id}")
  })

  it("says integer ids start at 1: no generated example or client proposes 0 or a negative one", () => {
    const { schemas } = document.components
    const ids = [
      schemas.roster_RoleEncoded.properties.id,
      schemas.roster_MemberEncoded.properties.roleId,
      schemas.roster_RolePermissionDetailEncoded.properties.id,
      schemas.roster_CatalogPermissionEncoded.properties.id
    ]
    for (const id of ids)
      expect(id).toEqual({ type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
  })

  it("links a created member and a granted record to their reads and changes", () => {
    const memberLinks = operation("post", "/api/v1/team/add").responses["200"].links
    expect(memberLinks.ReadMember).toEqual({
      operationId: "team.getMember",
      parameters: { id: "$response.body#/id" }
    })
    const operationIds = new Set(
      Object.values(document.paths).flatMap((item) => Object.values(item as object).map((o) => o.operationId))
    )
    for (const [, links] of Object.entries(document.paths).flatMap(([, item]) =>
      Object.entries(item as object)
    )) {
      for (const link of Object.values(links.responses?.["200"]?.links ?? {}) as Array<{
        operationId: string
      }>) {
        expect(operationIds.has(link.operationId), link.operationId).toBe(true)
      }
    }
  })

  it("declares Idempotency-Key on every authenticated POST and PATCH only, Roster-Organization and its 404 on every authenticated operation", () => {
    const ignoring = new Set([
      "post /api/v1/auth/login",
      "post /api/v1/auth/signup",
      "post /api/v1/invitations/accept",
      "post /api/v1/payments/webhook",
      "post /api/v1/auth/password/forgot",
      "post /api/v1/auth/password/reset",
      "post /api/v1/auth/email/verify",
      "post /api/v1/auth/mfa/verify",
      "post /api/v1/sso/saml/acs",
      "post /api/v1/sso/token",
      "post /api/v1/auth/passkeys/login/options",
      "post /api/v1/auth/passkeys/login",
      "post /api/v1/auth/mfa/passkey/options"
    ])
    for (const [path, item] of Object.entries<Record<string, { parameters?: Array<{ name: string }> }>>(
      document.paths
    )) {
      for (const [method, declared] of Object.entries(item)) {
        const names = (declared.parameters ?? []).map((parameter) => parameter.name)
        const writes = (method === "post" || method === "patch") && !ignoring.has(`${method} ${path}`)
        expect(names.includes("Idempotency-Key"), `${method} ${path}`).toBe(writes)
        const authenticated = (operation(method, path).security?.length ?? 0) > 0
        expect(names.includes("Roster-Organization"), `${method} ${path}`).toBe(authenticated)
        if (authenticated) expect(operation(method, path).responses["404"], `${method} ${path}`).toBeDefined()
        if (writes) {
          const answers = JSON.stringify(operation(method, path).responses)
          expect(answers).toContain("RequestInProgressEncoded")
          expect(answers).toContain("IdempotencyKeyReusedEncoded")
        }
      }
    }
  })

  it("documents errors as problem details with their codes", () => {
    const responses = operation("post", "/api/v1/team/add").responses
    for (const status of ["400", "401", "403", "409", "413", "422", "500", "503"]) {
      expect(Object.keys(responses[status].content), status).toEqual(["application/problem+json"])
    }
    const validation = document.components.schemas.ValidationFailedEncoded
    expect(validation.properties.code.enum).toEqual(["validation_failed"])
    expect(validation.properties.errors.type).toBe("array")
    const login = operation("post", "/api/v1/auth/login").responses["429"]
    expect(login.headers["retry-after"]).toBeDefined()
  })

  it("declares Roster-Session on the operations that start a session, and on no other", () => {
    const starting = [
      "auth.login",
      "auth.signup",
      "mfa.verifyMfa",
      "invitations.acceptInvitation",
      "ssoSignIn.exchangeSsoCode",
      "passkeys.passkeySignIn"
    ]
    for (const item of Object.values(document.paths))
      for (const op of Object.values(
        item as Record<string, { operationId: string; parameters?: Array<{ name: string }> }>
      )) {
        const names = (op.parameters ?? []).map((parameter) => parameter.name)
        expect(names.includes("Roster-Session"), op.operationId).toBe(starting.includes(op.operationId))
      }
  })

  it("declares bearer security on protected endpoints and none on login, webhook and health", () => {
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "Bearer" })
    expect(operation("post", "/api/v1/team/add").security).toEqual(everyScheme)
    expect(document.components.securitySchemes.roster_session).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: "roster_session"
    })
    for (const [method, path] of [
      ["post", "/api/v1/auth/login"],
      ["post", "/api/v1/payments/webhook"],
      ["get", "/health/ready"]
    ] as const) {
      expect(operation(method, path).security ?? [], `${method} ${path}`).toEqual([])
    }
  })

  it("declares bearer security on every operation but login and its second step, a passkey's sign-in, signup, the mailed links, accepting an invitation, single sign-on's round trip, the webhook, the probes and the access tokens' keys", () => {
    const open = [
      "auth.login",
      "auth.signup",
      "account.forgotPassword",
      "account.resetPassword",
      "account.verifyEmail",
      "mfa.verifyMfa",
      "invitations.acceptInvitation",
      "payments.webhook",
      "health.live",
      "health.ready",
      "auth.signInMethods",
      "ssoBrowser.startSso",
      "ssoBrowser.oidcCallback",
      "ssoBrowser.samlAcs",
      "ssoBrowser.samlReturn",
      "ssoBrowser.samlMetadata",
      "ssoSignIn.exchangeSsoCode",
      "passkeys.passkeySignInOptions",
      "passkeys.passkeySignIn",
      "passkeys.secondStepPasskeyOptions",
      "wellKnown.jwks",
      "wellKnown.openidConfiguration"
    ]
    for (const item of Object.values(document.paths))
      for (const op of Object.values(item as object))
        expect(op.security, op.operationId).toEqual(open.includes(op.operationId) ? [] : everyScheme)
  })

  it("declares the same security in the document an embedder makes from RosterApi itself", () => {
    const own = OpenApi.fromApi(RosterApi) as typeof document
    expect(own.components.securitySchemes).toEqual(document.components.securitySchemes)
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, op] of Object.entries(item as object))
        expect(own.paths[path][method].security, op.operationId).toEqual(op.security)
  })

  it("names on every operation that takes credentials the permission it needs, from the endpoints' declarations", () => {
    const catalog = new Set(PermissionCatalog.map((permission) => permission.key))
    const named = new Map<string, unknown>()
    for (const item of Object.values(document.paths))
      for (const op of Object.values(item as object)) {
        if (op.security.length === 0) {
          expect(op, `${op.operationId} is public`).not.toHaveProperty("x-roster-permission")
          continue
        }
        expect(op, op.operationId).toHaveProperty("x-roster-permission")
        const permission = op["x-roster-permission"]
        if (permission !== null)
          expect(catalog.has(permission), `${op.operationId}: ${permission}`).toBe(true)
        named.set(op.operationId, permission)
      }
    expect(named.get("team.addMember")).toBe("team.members.write")
    expect(named.get("audit.listEvents")).toBe("audit.read")
    // One's own account, and the master key's own operations, need no permission of the catalog.
    expect(named.get("auth.me")).toBeNull()
    expect(named.get("organizations.createOrganization")).toBeNull()
    const declared = new Map<string, unknown>()
    HttpApi.reflect(RosterApi, {
      onGroup: () => {},
      onEndpoint: ({ group, endpoint, mergedAnnotations }) =>
        void declared.set(
          `${group.identifier}.${endpoint.identifier}`,
          Context.get(mergedAnnotations, RequiresPermission) ?? null
        )
    })
    for (const [operation, permission] of named) expect(permission, operation).toBe(declared.get(operation))
  })

  it("names the same permissions in the document an embedder makes from RosterApi itself", () => {
    const own = OpenApi.fromApi(RosterApi) as typeof document
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, op] of Object.entries(item as object))
        expect(own.paths[path][method]["x-roster-permission"], op.operationId).toEqual(
          op["x-roster-permission"]
        )
  })

  it("requires no credentials anywhere in open local mode, where none are needed", async () => {
    const api = await startApi({ mode: "open" })
    const open = (await api.call("GET", "/api/v1/openapi.json")).body as typeof document
    expect(open.components.securitySchemes).toBeUndefined()
    for (const item of Object.values(open.paths)) {
      for (const op of Object.values(item as object)) expect(op.security, op.operationId).toBeUndefined()
    }
    expect(Object.keys(open.paths).sort()).toEqual(Object.keys(document.paths).sort())
  })
})
