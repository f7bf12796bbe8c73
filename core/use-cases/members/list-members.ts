import { Effect, Schema } from "effect"
import { type Member, toMember } from "../../model/member.ts"
import { MemberFilter, MemberPosition, memberPositionOf } from "../../model/member-query.ts"
import { defaultPageLimit, type Page, PageLimit, pageOf } from "../../model/page.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { MemberStore } from "../../ports/member-store.ts"

export const ListMembersInput = Schema.Struct({
  ...MemberFilter.fields,
  limit: Schema.optionalKey(PageLimit),
  /** Where the previous page ended; the first page when absent. */
  after: Schema.optionalKey(MemberPosition)
})
export type ListMembersInput = typeof ListMembersInput.Type

/** One page of members, oldest first, filtered. */
export const listMembers = Effect.fnUntraced(function* (actor: Principal, input: ListMembersInput = {}) {
  yield* requirePermission(actor, "team.read")
  const { limit = defaultPageLimit, ...query } = input
  const rows = yield* (yield* MemberStore).page(query, limit + 1)
  const page: Page<Member, MemberPosition> = pageOf(rows.map(toMember), limit, memberPositionOf)
  return page
})
