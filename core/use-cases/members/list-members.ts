import { Effect, Schema } from "effect"
import { type Member, toMember } from "../../model/member.ts"
import { MemberFilter, MemberPosition, type MemberQuery, memberPositionOf } from "../../model/member-query.ts"
import { defaultPageLimit, type Page, PageLimit, pageOf } from "../../model/page.ts"
import { everyPermission } from "../../model/permission-set.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import type { CatalogPermission } from "../../policy/permission-catalog.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { permissionsNamed } from "../../steps/authorization/permissions-named.ts"

export const ListMembersInput = Schema.Struct({
  ...MemberFilter.fields,
  /** Only the members whose role holds this permission (its key, Roster's or the product's). */
  permission: Schema.optionalKey(Schema.String),
  limit: Schema.optionalKey(PageLimit),
  /** Where the previous page ended; the first page when absent. */
  after: Schema.optionalKey(MemberPosition)
})
export type ListMembersInput = typeof ListMembersInput.Type

/**
 * The roles holding the permission `key` names, the Owner role's "every permission" included; an
 * unknown key fails, never reads as "nobody".
 */
const holdersOf = Effect.fnUntraced(function* (key: string) {
  const [permission] = yield* permissionsNamed([key])
  const store = yield* RolePermissionStore
  const [explicit, everything] = yield* Effect.all([
    store.rolesHolding([(permission as CatalogPermission).id]),
    store.rolesHolding([everyPermission])
  ])
  return [...new Set([...explicit, ...everything])]
})

/** One page of members, oldest first, filtered. */
export const listMembers = Effect.fnUntraced(function* (actor: Principal, input: ListMembersInput = {}) {
  yield* requirePermission(actor, "team.read")
  const { limit = defaultPageLimit, permission, ...filter } = input
  const query: MemberQuery =
    permission === undefined ? filter : { ...filter, roleIds: yield* holdersOf(permission) }
  // No role holds it: nobody does, without asking the store.
  const rows = query.roleIds?.length === 0 ? [] : yield* (yield* MemberStore).page(query, limit + 1)
  const page: Page<Member, MemberPosition> = pageOf(rows.map(toMember), limit, memberPositionOf)
  return page
})
