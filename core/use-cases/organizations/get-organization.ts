import { Effect } from "effect"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { currentOrganization } from "../../steps/organizations/current-organization.ts"

/** The caller's organisation. */
export const getOrganization = Effect.fnUntraced(function* (actor: Principal) {
  yield* requirePermission(actor, "team.read")
  return yield* currentOrganization
})
