import { DateTime, Effect, Option, Schema } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { ApiKeyId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { ApiKeyStore } from "../../ports/api-key-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { changeableKey } from "../../steps/api-keys/key-permissions.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"

/** At most a week of grace, in seconds. */
export const maxGraceSeconds = 604_800

export const RotateApiKeyInput = Schema.Struct({
  graceSeconds: Schema.optionalKey(
    Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: maxGraceSeconds }))
  )
})
export type RotateApiKeyInput = typeof RotateApiKeyInput.Type

/**
 * A new secret for the same key, answered this once. The secret it replaces keeps working for
 * `graceSeconds` (none by default), while the integration holding it moves to the new one; a
 * secret still in its grace from an earlier rotation ends now.
 */
export const rotateApiKey = Effect.fnUntraced(function* (
  actor: Principal,
  id: ApiKeyId,
  input: RotateApiKeyInput = {}
) {
  const key = yield* changeableKey(actor, id)
  const graceSeconds = input.graceSeconds ?? 0
  const now = yield* DateTime.now
  const issued = yield* (yield* TokenIssuer).issueApiKey(key.lookup)
  const previous =
    graceSeconds === 0
      ? null
      : { secretHash: key.secretHash, until: DateTime.add(now, { seconds: graceSeconds }) }
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "api_key.rotated",
    { type: "api_key", id },
    { graceSeconds: [null, graceSeconds] }
  )
  const rotated = yield* (yield* ApiKeyStore).rotate(id, { secretHash: issued.secretHash, previous }, entry)
  if (Option.isNone(rotated)) return yield* new NotFound({ entity: "api_key", id })
  return { apiKey: rotated.value, key: issued.key }
})
