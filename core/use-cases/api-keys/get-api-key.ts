import { Effect, Option } from "effect"
import { toApiKey } from "../../model/api-key.ts"
import { NotFound } from "../../model/errors.ts"
import type { ApiKeyId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { ApiKeyStore } from "../../ports/api-key-store.ts"

/** One of the organisation's API keys, never the key itself. */
export const getApiKey = Effect.fnUntraced(function* (actor: Principal, id: ApiKeyId) {
  yield* requirePermission(actor, "organization.api_keys.write")
  const found = yield* (yield* ApiKeyStore).find(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "api_key", id })
  return toApiKey(found.value)
})
