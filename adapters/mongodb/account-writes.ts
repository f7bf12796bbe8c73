import { Effect, Option } from "effect"
import type { Db } from "mongodb"
import { type MemberId, MemberRecord, type MemberStore, usernameKey } from "../../core/index.ts"
import type { Copied } from "./consistency/index.ts"
import { accountChanges } from "./consistency/index.ts"
import { membershipOf } from "./member-reads.ts"

/**
 * What `MemberStore` changes of an account, for every organisation it is a member of: the change is
 * made on the account, and its copies on the memberships settled (see `accountChanges`).
 */
export const accountWrites = (
  db: Db
): Pick<MemberStore["Service"], "setAccountStatus" | "setPassword" | "updateAccount" | "verifyEmail"> => {
  const { conflictOf, changeMembershipsFirst, changeAccountFirst } = accountChanges(db)
  const membership = membershipOf(db)
  /**
   * An account-wide change of a member of the current organisation, checked to be one first; none
   * when it is not. A change that widens answers the member as that check read it, with the account
   * as the change left it; one that narrows (it changes the memberships too) reads the member again.
   */
  const changeAccount = <E>(id: MemberId, change: Effect.Effect<Copied, E>, accountFirst: boolean) =>
    Effect.flatMap(membership(id), (found) =>
      Option.isNone(found)
        ? Effect.succeedNone
        : Effect.flatMap(change, ({ account, reached }) =>
            accountFirst && account !== null && reached > 0
              ? Effect.succeed(
                  Option.some(
                    new MemberRecord({
                      ...found.value,
                      username: account.username,
                      email: account.email,
                      emailVerified: account.emailVerified ?? false,
                      accountActiveStatus: account.accountActiveStatus
                    })
                  )
                )
              : membership(id)
          )
    )
  return {
    setAccountStatus: (id, active, entry) =>
      (active
        ? changeAccount(id, changeAccountFirst(id, { $set: { accountActiveStatus: true } }, entry), true)
        : changeAccount(
            id,
            changeMembershipsFirst(
              id,
              { $set: { accountActiveStatus: false }, $inc: { accountEpoch: 1 } },
              { $set: { accountActiveStatus: false } },
              entry
            ),
            false
          )
      ).pipe(Effect.catchTag("DuplicateKey", (error) => Effect.die(error))),
    setPassword: (id, passwordHash, entry) =>
      changeAccount(
        id,
        changeMembershipsFirst(id, { $inc: { accountEpoch: 1 } }, { $set: { passwordHash } }, entry),
        false
      ).pipe(Effect.catchTag("DuplicateKey", (error) => Effect.die(error))),
    verifyEmail: (id, email, entry) =>
      Effect.flatMap(membership(id), (found) =>
        Option.isNone(found)
          ? Effect.succeedNone
          : changeAccountFirst(id, { $set: { emailVerified: true } }, entry, { email }).pipe(
              Effect.flatMap(({ account }) => (account === null ? Effect.succeedNone : membership(id))),
              Effect.catchTag("DuplicateKey", (error) => Effect.die(error))
            )
      ),
    updateAccount: (id, changes, entry) => {
      const set = {
        ...changes,
        ...(changes.username === undefined ? {} : { usernameKey: usernameKey(changes.username) })
      }
      return changeAccount(
        id,
        changeAccountFirst(id, { $set: set }, entry).pipe(
          Effect.catchTag("DuplicateKey", () => conflictOf(id, changes))
        ),
        true
      )
    }
  }
}
