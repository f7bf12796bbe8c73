import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { requireAccountNotShared } from "../../policy/account-shared.ts"
import { requireNotSelf, requireWithinCeiling } from "../../policy/ceiling.ts"
import { MemberStore } from "../../ports/member-store.ts"

/**
 * Another member's account, as an administrator may change what is the account's own (its password,
 * its second factor): with `admin.accounts.write`, never on oneself, held to the ceiling, and from an
 * organisation's administrator only on an account that is theirs alone, since the change shows in
 * every organisation. Answers the member as read.
 */
export const administeredAccount = Effect.fnUntraced(function* (actor: Principal, id: MemberId) {
  yield* requirePermission(actor, "admin.accounts.write")
  yield* requireNotSelf(actor, id)
  const found = yield* (yield* MemberStore).findById(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "member", id })
  yield* requireWithinCeiling(actor, found.value.roleId)
  yield* requireAccountNotShared(actor, id)
  return found.value
})
