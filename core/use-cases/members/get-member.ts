import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import { toMember } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { MemberStore } from "../../ports/member-store.ts"

export const getMember = Effect.fnUntraced(function* (actor: Principal, id: MemberId) {
  yield* requirePermission(actor, "team.read")
  const record = yield* (yield* MemberStore).findById(id)
  if (Option.isNone(record)) return yield* new NotFound({ entity: "member", id })
  return toMember(record.value)
})
