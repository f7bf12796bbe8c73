import { Effect, Schema } from "effect"
import { defaultPageLimit, type Page, PageLimit, pageOf } from "../../model/page.ts"
import type { Principal } from "../../model/principal.ts"
import { type Role, RolePosition } from "../../model/role.ts"
import { requirePermission } from "../../policy/access.ts"
import { RoleStore } from "../../ports/role-store.ts"

export const ListRolesInput = Schema.Struct({
  limit: Schema.optionalKey(PageLimit),
  /** Where the previous page ended; the first page when absent. */
  after: Schema.optionalKey(RolePosition)
})
export type ListRolesInput = typeof ListRolesInput.Type

/** One page of roles, by id. */
export const listRoles = Effect.fnUntraced(function* (actor: Principal, input: ListRolesInput = {}) {
  yield* requirePermission(actor, "team.read")
  const limit = input.limit ?? defaultPageLimit
  const rows = yield* (yield* RoleStore).page(input.after?.id, limit + 1)
  const page: Page<Role, RolePosition> = pageOf(rows, limit, (role) => ({ id: role.id }))
  return page
})
