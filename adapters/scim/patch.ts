import { patchBodyValidation, ScimError, type ScimPatchOperation, scimPatch } from "scim-patch"
import type { Resource } from "./resources.ts"
import { badRequest, type ScimFailure, type ScimType } from "./scim-error.ts"
import type { patchOpId } from "./urns.ts"

const scimTypes = new Set<string>(["invalidPath", "noTarget", "invalidValue", "invalidSyntax", "mutability"])

/** `emails[type eq "work"].value` of a member whose e-mail has no such type sets the e-mail and its type. */
const emailOfType = /^emails\[type eq "([^"]*)"\]\.value$/iu

interface Operation {
  readonly op: string
  readonly path?: string
  readonly value?: unknown
}

/** An operation as the applier takes it: `op` lower-cased (Entra capitalises it), Entra's e-mail paths resolved. */
const normalized = (resource: Resource, operation: Operation): ScimPatchOperation => {
  const op = operation.op.toLowerCase()
  const typed = operation.path === undefined ? null : emailOfType.exec(operation.path)
  if (typed !== null && (op === "add" || op === "replace")) {
    const emails = (resource.emails ?? []) as ReadonlyArray<{ readonly type?: string }>
    if (!emails.some((email) => email.type === typed[1])) {
      return {
        op: "replace",
        path: "emails",
        value: [{ value: operation.value, type: typed[1], primary: true }]
      }
    }
  }
  return { ...operation, op } as ScimPatchOperation
}

/**
 * The resource as a PatchOp body would leave it: every form RFC 7644 §3.5.2 allows, with and
 * without `path`, value filters included. What the operations cannot apply to is a failure.
 */
export const patched = (resource: Resource, body: unknown): Record<string, unknown> | ScimFailure => {
  const request = body as { Operations?: unknown; schemas?: unknown }
  if (typeof body !== "object" || body === null || !Array.isArray(request.Operations)) {
    return badRequest("invalidSyntax", "A PatchOp body with its Operations is expected")
  }
  const operations = request.Operations as ReadonlyArray<Operation>
  if (
    operations.some(
      (operation) => typeof operation !== "object" || operation === null || typeof operation.op !== "string"
    )
  ) {
    return badRequest("invalidSyntax", "Each operation needs an op")
  }
  const { meta: _meta, ...current } = resource
  try {
    const ops = operations.map((operation) => normalized(resource, operation))
    patchBodyValidation({ schemas: request.schemas as Array<typeof patchOpId>, Operations: ops })
    const document = structuredClone(current) as unknown as Parameters<typeof scimPatch>[0]
    return scimPatch(document, ops, { mutateDocument: true, treatMissingAsAdd: true }) as unknown as Record<
      string,
      unknown
    >
  } catch (error) {
    if (!(error instanceof ScimError)) throw error
    const code = error.scimCode
    return badRequest(
      code !== undefined && scimTypes.has(code) ? (code as ScimType) : "invalidValue",
      error.message
    )
  }
}
