import { Effect } from "effect"
import type { Db } from "mongodb"
import { queryWrite } from "../driver.ts"
import {
  type AccountDocument,
  copiedFrom,
  type MembershipDocument,
  notNewerThan
} from "./account-documents.ts"
import { notRemoved } from "./audit-document.ts"
import type { Fence } from "./fences.ts"
import { sessionFences } from "./session-fences.ts"

/** What a change of an account left: the account (none when there is none), and how many memberships took its copy. */
export interface Copied {
  readonly account: AccountDocument | null
  readonly reached: number
}

/**
 * Runs `write` of an account (answering it as it left it) behind a fence on its memberships, and
 * copies that onto them as the fence comes down, in the same write. The copy goes to every
 * membership of the account, fenced or not: one made while the change ran copied the account as it
 * read it, perhaps before this write, and takes this copy unless it has a later one. Where a fenced
 * membership took a later copy, or left meanwhile, the fence comes down with a write of its own
 * (should a membership made meanwhile make up the count, the fence stays up until it is taken for
 * abandoned, as when a process stops halfway: the account is then copied again, see
 * `liftAbandonedFences`).
 */
export const accountCopies = (db: Db) => {
  const members = db.collection<MembershipDocument>("members")
  const fences = sessionFences(db)
  const copyOnto = (account: AccountDocument, fence: Fence) =>
    queryWrite(() =>
      members.updateMany(
        { accountId: account._id, ...notRemoved, ...notNewerThan(account) },
        { $set: copiedFrom(account), $pull: { fences: fence } }
      )
    ).pipe(Effect.map((result) => result.matchedCount))
  return <E>(accountId: string, write: Effect.Effect<AccountDocument | null, E>) =>
    fences.copyingAccount(accountId)(
      (fence, raised) =>
        Effect.flatMap(write, (account) =>
          account === null
            ? Effect.succeed<Copied & { readonly lifted: boolean }>({ account, reached: 0, lifted: false })
            : Effect.map(copyOnto(account, fence), (reached) => ({
                account,
                reached,
                lifted: reached === raised
              }))
        ),
      (done) => done.lifted
    )
}
