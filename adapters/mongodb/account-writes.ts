import { Effect, Option } from "effect"
import type { Db } from "mongodb"
import { type MemberId, type MemberStore, usernameKey } from "../../core/index.ts"
import { accountChanges } from "./account-changes.ts"
import type { AccountDocument } from "./account-documents.ts"
import { pushEntry } from "./audit-document.ts"
import { queryWrite } from "./driver.ts"
import { membershipOf } from "./member-reads.ts"
import { noteLeft } from "./relay-hints.ts"

/**
 * What `MemberStore` changes of an account, for every organisation it is a member of: the change is
 * made on the account, and its copies on the memberships settled (see `accountChanges`).
 */
export const accountWrites = (
  db: Db
): Pick<MemberStore["Service"], "setAccountStatus" | "setPassword" | "updateAccount"> => {
  const accounts = db.collection<AccountDocument>("accounts")
  const { conflictOf, narrowMemberships, widen } = accountChanges(db)
  const membership = membershipOf(db)
  /** An account-wide change of a member of the current organisation; none when there is none. */
  const changeAccount = <E>(id: MemberId, change: Effect.Effect<unknown, E>) =>
    membership(id).pipe(
      Effect.flatMap((found) =>
        Option.isNone(found) ? Effect.succeedNone : Effect.andThen(change, membership(id))
      )
    )
  return {
    setAccountStatus: (id, active, entry) =>
      changeAccount(
        id,
        active
          ? widen({ _id: id }, { $set: { accountActiveStatus: true }, ...pushEntry(entry) })
          : narrowMemberships(id, { $set: { accountActiveStatus: false }, $inc: { accountEpoch: 1 } }).pipe(
              Effect.andThen(
                queryWrite(() =>
                  accounts.updateOne(
                    { _id: id },
                    { $set: { accountActiveStatus: false }, ...pushEntry(entry) }
                  )
                )
              )
            )
      ).pipe(Effect.catchTag("DuplicateKey", (error) => Effect.die(error))),
    setPassword: (id, passwordHash, entry) =>
      changeAccount(
        id,
        narrowMemberships(id, { $inc: { accountEpoch: 1 } }).pipe(
          Effect.andThen(
            queryWrite(() => accounts.updateOne({ _id: id }, { $set: { passwordHash }, ...pushEntry(entry) }))
          )
        )
      ),
    updateAccount: (id, changes, entry) => {
      const set = {
        ...changes,
        ...(changes.username === undefined ? {} : { usernameKey: usernameKey(changes.username) })
      }
      return changeAccount(
        id,
        widen({ _id: id }, { $set: set, ...pushEntry(entry) }).pipe(
          Effect.tap((account) => (account === null ? Effect.void : noteLeft(db, "accounts", id, entry))),
          Effect.catchTag("DuplicateKey", () => conflictOf(id, changes))
        )
      )
    }
  }
}
