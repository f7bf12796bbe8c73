import { Effect } from "effect"
import { DuplicateEmail, DuplicateUsername } from "../../model/errors.ts"
import { holdsLogin } from "../../model/member.ts"
import { MemberStore } from "../../ports/member-store.ts"

/**
 * Refuses an e-mail or username another account holds, in one read, before anything is hashed or
 * written; the stores' unique indexes remain the real guard against a race.
 */
export const requireLoginsFree = Effect.fnUntraced(function* (email: string, username: string) {
  const holders = yield* (yield* MemberStore).findByLogins([email, username])
  if (holders.some((account) => holdsLogin(account, email))) return yield* new DuplicateEmail({ email })
  if (holders.some((account) => holdsLogin(account, username))) {
    return yield* new DuplicateUsername({ username })
  }
})
