import { Effect } from "effect"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { RoleStore } from "../../ports/role-store.ts"

export const listRoles = Effect.fnUntraced(function* (actor: Principal) {
  yield* requirePermission(actor, "team.read")
  return yield* (yield* RoleStore).list
})
