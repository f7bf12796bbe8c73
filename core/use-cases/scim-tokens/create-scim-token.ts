import { DateTime, Effect, Schema } from "effect"
import { withoutMarker } from "../../model/permission-set.ts"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { ScimTokenName, ScimTokenRecord, toScimToken } from "../../model/scim-token.ts"
import { requirePermission, scimTokenPermissions } from "../../policy/access.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { ScimTokenStore } from "../../ports/scim-token-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"

export const CreateScimTokenInput = Schema.Struct({ name: ScimTokenName })
export type CreateScimTokenInput = typeof CreateScimTokenInput.Type

/**
 * A new SCIM token for the organisation's identity provider, acting with the creator's permissions
 * of now less `organization.write` (see `scimTokenPermissions`). The token is answered this once:
 * only its hash is kept.
 */
export const createScimToken = Effect.fnUntraced(function* (actor: Principal, input: CreateScimTokenInput) {
  yield* requirePermission(actor, "organization.write")
  const issued = yield* (yield* TokenIssuer).issue("scim")
  const record = new ScimTokenRecord({
    id: yield* (yield* IdGenerator).next("scimToken"),
    name: input.name,
    permissionIds: scimTokenPermissions(actor),
    createdAt: yield* DateTime.now,
    organizationId: yield* CurrentOrganization,
    tokenHash: issued.hash
  })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "scim_token.created",
    { type: "scim_token", id: record.id },
    { name: [null, record.name], permissionIds: [null, withoutMarker(record.permissionIds)] }
  )
  yield* (yield* ScimTokenStore).insert(record, entry)
  return { scimToken: toScimToken(record), token: issued.token }
})
