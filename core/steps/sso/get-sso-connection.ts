import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { SsoConnectionId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { SsoConnectionStore } from "../../ports/sso-connection-store.ts"

/** The organisation's connection, as kept; `NotFound` when it has none of that id. */
export const findConnection = Effect.fnUntraced(function* (actor: Principal, id: SsoConnectionId) {
  yield* requirePermission(actor, "organization.sso.write")
  const found = yield* (yield* SsoConnectionStore).find(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "sso_connection", id })
  return found.value
})
