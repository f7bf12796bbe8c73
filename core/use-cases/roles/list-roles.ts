import { Effect, Schema } from "effect"
import { defaultPageLimit, type Page, PageLimit, pageOf } from "../../model/page.ts"
import type { Principal } from "../../model/principal.ts"
import { RolePosition, type RoleView } from "../../model/role.ts"
import { requirePermission } from "../../policy/access.ts"
import { RoleLookup } from "../../ports/role-lookup.ts"
import { roleView } from "../../steps/roles/role-view.ts"

export const ListRolesInput = Schema.Struct({
  limit: Schema.optionalKey(PageLimit),
  /** Where the previous page ended; the first page when absent. */
  after: Schema.optionalKey(RolePosition)
})
export type ListRolesInput = typeof ListRolesInput.Type

/** One page of roles, by id, each with what it holds. */
export const listRoles = Effect.fnUntraced(function* (actor: Principal, input: ListRolesInput = {}) {
  yield* requirePermission(actor, "team.read")
  const limit = input.limit ?? defaultPageLimit
  const rows = (yield* (yield* RoleLookup).page(input.after?.id, limit + 1)).map(roleView)
  const page: Page<RoleView, RolePosition> = pageOf(rows, limit, (role) => ({ id: role.id }))
  return page
})
