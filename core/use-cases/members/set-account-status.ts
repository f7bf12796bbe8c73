import { DateTime, Effect, Option, Schema } from "effect"
import { Forbidden, NotFound } from "../../model/errors.ts"
import { MemberId } from "../../model/ids.ts"
import { toMember } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { SessionStore } from "../../ports/session-store.ts"

export const SetAccountStatusInput = Schema.Struct({
  memberId: MemberId,
  active: Schema.Boolean
})
export type SetAccountStatusInput = typeof SetAccountStatusInput.Type

export const setAccountStatus = Effect.fn("Members.setAccountStatus")(function* (
  actor: Principal,
  input: SetAccountStatusInput
) {
  yield* requirePermission(actor, "admin.accounts.write")
  if (!input.active && actor._tag === "Member" && actor.member.id === input.memberId) {
    return yield* new Forbidden({ reason: "self_deactivation" })
  }
  const updated = yield* (yield* MemberStore).setAccountStatus(
    input.memberId,
    input.active,
    yield* DateTime.now
  )
  if (Option.isNone(updated)) return yield* new NotFound({ entity: "member", id: input.memberId })
  // The member record already voids older sessions; deleting them just frees the store.
  if (!input.active) yield* (yield* SessionStore).revokeAllOf(input.memberId)
  return toMember(updated.value)
})
