import { Effect, Option } from "effect"
import type { Db } from "mongodb"
import { type MemberId, type MemberStore, type OrganizationId, usernameKey } from "../../core/index.ts"
import { inOrganization } from "../organization-scope.ts"
import { accountChanges } from "./account-changes.ts"
import type { Copied } from "./account-copies.ts"
import { pushEntry } from "./audit-document.ts"
import { membershipOf, optionalMember } from "./member-reads.ts"
import { noteLeft } from "./relay-hints.ts"

/** The account and the membership of it answered: the current organisation's. */
type Changed = { readonly accountId: MemberId; readonly organizationId: OrganizationId }

/**
 * What `MemberStore` changes of an account, for every organisation it is a member of: the change is
 * made on the account, and its copies on the memberships settled (see `accountChanges`).
 */
export const accountWrites = (
  db: Db
): Pick<MemberStore["Service"], "setAccountStatus" | "setPassword" | "updateAccount"> => {
  const { conflictOf, narrow, widen } = accountChanges(db)
  const membership = membershipOf(db)
  /**
   * An account-wide change of a member of the current organisation; none when there is none. The
   * membership is answered as the change left it: as its copy answered it, or else read again.
   */
  const changeAccount = <E>(id: MemberId, change: (changed: Changed) => Effect.Effect<Copied, E>) =>
    Effect.flatMap(membership(id), (found) =>
      Option.isNone(found)
        ? Effect.succeedNone
        : inOrganization((organizationId) => change({ accountId: id, organizationId })).pipe(
            Effect.flatMap(({ membership: copiedOnto }) =>
              copiedOnto === undefined || copiedOnto === null ? membership(id) : optionalMember(copiedOnto)
            )
          )
    )
  return {
    setAccountStatus: (id, active, entry) =>
      changeAccount(id, (changed) =>
        active
          ? widen(changed, { $set: { accountActiveStatus: true }, ...pushEntry(entry) })
          : narrow(
              changed,
              { $set: { accountActiveStatus: false }, $inc: { accountEpoch: 1 } },
              { $set: { accountActiveStatus: false }, ...pushEntry(entry) }
            )
      ).pipe(Effect.catchTag("DuplicateKey", (error) => Effect.die(error))),
    setPassword: (id, passwordHash, entry) =>
      changeAccount(id, (changed) =>
        narrow(changed, { $inc: { accountEpoch: 1 } }, { $set: { passwordHash }, ...pushEntry(entry) })
      ).pipe(Effect.catchTag("DuplicateKey", (error) => Effect.die(error))),
    updateAccount: (id, changes, entry) => {
      const set = {
        ...changes,
        ...(changes.username === undefined ? {} : { usernameKey: usernameKey(changes.username) })
      }
      return changeAccount(id, (changed) =>
        widen(changed, { $set: set, ...pushEntry(entry) }).pipe(
          Effect.tap(({ account }) => (account === null ? Effect.void : noteLeft(db, "accounts", id, entry))),
          Effect.catchTag("DuplicateKey", () => conflictOf(id, changes))
        )
      )
    }
  }
}
