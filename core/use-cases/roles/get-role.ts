import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { RoleId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { RoleLookup } from "../../ports/role-lookup.ts"
import { roleView } from "../../steps/roles/role-view.ts"

/** A role with what it holds and the id of its permission record. */
export const getRole = Effect.fnUntraced(function* (actor: Principal, id: RoleId) {
  yield* requirePermission(actor, "team.read")
  const found = yield* (yield* RoleLookup).find(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "role", id: String(id) })
  return roleView(found.value)
})
