import { Effect } from "effect"
import { toMember } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { MemberStore } from "../../ports/member-store.ts"

export const listMembers = Effect.fnUntraced(function* (actor: Principal) {
  yield* requirePermission(actor, "team.read")
  const records = yield* (yield* MemberStore).list
  return records.map(toMember)
})
