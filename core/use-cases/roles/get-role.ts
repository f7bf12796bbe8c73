import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { RoleId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { RoleStore } from "../../ports/role-store.ts"

export const getRole = Effect.fnUntraced(function* (actor: Principal, id: RoleId) {
  yield* requirePermission(actor, "team.read")
  const role = yield* (yield* RoleStore).findById(id)
  if (Option.isNone(role)) return yield* new NotFound({ entity: "role", id: String(id) })
  return role.value
})
