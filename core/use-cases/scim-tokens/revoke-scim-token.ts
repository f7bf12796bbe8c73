import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { ScimTokenId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { ScimTokenStore } from "../../ports/scim-token-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"

/** Deletes a SCIM token: the identity provider holding it is refused from then on. */
export const revokeScimToken = Effect.fnUntraced(function* (actor: Principal, id: ScimTokenId) {
  yield* requirePermission(actor, "organization.write")
  const entry = yield* newAuditEntry(auditActorOf(actor), "scim_token.revoked", { type: "scim_token", id })
  const revoked = yield* (yield* ScimTokenStore).revoke(id, entry)
  if (Option.isNone(revoked)) return yield* new NotFound({ entity: "scim_token", id })
  return revoked.value
})
