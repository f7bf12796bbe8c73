import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { ApiKeyId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { ApiKeyStore } from "../../ports/api-key-store.ts"
import { changeableKey } from "../../steps/api-keys/key-permissions.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"

/**
 * Deletes an API key: the next request made with it is refused. Its entry keeps the name it had,
 * so that the record names what went.
 */
export const revokeApiKey = Effect.fnUntraced(function* (actor: Principal, id: ApiKeyId) {
  const key = yield* changeableKey(actor, id)
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "api_key.revoked",
    { type: "api_key", id },
    { name: [key.name, null] }
  )
  const revoked = yield* (yield* ApiKeyStore).revoke(id, entry)
  if (Option.isNone(revoked)) return yield* new NotFound({ entity: "api_key", id })
  return revoked.value
})
