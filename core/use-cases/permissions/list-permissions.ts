import { Effect } from "effect"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { catalogPermissions } from "../../policy/permission-catalog.ts"

/** The catalog as it is now: Roster's permissions, then the product's declared ones, each with its kind. */
export const listPermissions = Effect.fnUntraced(function* (actor: Principal) {
  yield* requirePermission(actor, "team.read")
  return yield* catalogPermissions
})
