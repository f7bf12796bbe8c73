import { Effect, Option, Schema } from "effect"
import { DuplicateUsername } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import { Username } from "../../model/member.ts"
import { usernameFrom, withSuffix } from "../../model/provisioning-names.ts"
import { MemberStore } from "../../ports/member-store.ts"

const isUsername = Schema.is(Username)

/**
 * The username for an identity provider's `userName`: itself when it is one, else one made from it
 * (see `usernameFrom`), numbered when another account has it already. `own` is the account being
 * renamed, whose username is free for it.
 */
export const freeUsername = Effect.fnUntraced(function* (userName: string, own?: MemberId) {
  const members = yield* MemberStore
  const base = isUsername(userName) ? userName : usernameFrom(userName)
  for (let attempt = 1; attempt <= 10; attempt++) {
    const candidate = attempt === 1 ? base : withSuffix(base, String(attempt))
    const holder = yield* members.findByLogin(candidate)
    if (Option.isNone(holder) || holder.value.id === own) return candidate
  }
  return yield* new DuplicateUsername({ username: base })
})
