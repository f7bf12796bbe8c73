import { Effect } from "effect"
import type { Db } from "mongodb"
import type { StoreUnavailable } from "../../core/index.ts"
import {
  type AccountDocument,
  copiedFrom,
  type MembershipDocument,
  notNewerThan
} from "./account-documents.ts"
import { live } from "./audit-document.ts"
import { queryWrite } from "./driver.ts"
import type { Fence } from "./fences.ts"
import { sessionFences } from "./session-fences.ts"

/**
 * What a change of an account left: the account (none when there is none), how many memberships
 * took its copy, and the membership of the organisation asked about as it left it, when that one
 * was the account's only membership (undefined when it was not asked about, or not the only one).
 */
export interface Copied {
  readonly account: AccountDocument | null
  readonly reached: number
  readonly membership?: MembershipDocument | null
}

/**
 * Runs `write` of an account (answering it as it left it) behind a fence on its memberships, and
 * copies that onto them as the fence comes down, in the same write. Where a membership took a later
 * copy, or left meanwhile, the fence comes down with a write of its own. A process that stops halfway
 * leaves the fence up: the account is copied again when the fence is taken for abandoned
 * (`liftAbandonedFences`).
 */
export const accountCopies = (db: Db) => {
  const members = db.collection<MembershipDocument>("members")
  const fences = sessionFences(db)
  const copying = (account: AccountDocument, fence: Fence) => ({
    filter: { accountId: account._id, "fences.id": fence.id, ...live, ...notNewerThan(account) },
    update: { $set: copiedFrom(account), $pull: { fences: fence } }
  })
  const copyOnto = (
    account: AccountDocument,
    fence: Fence,
    raised: number,
    organizationId: string | undefined
  ): Effect.Effect<Copied, StoreUnavailable> => {
    const { filter, update } = copying(account, fence)
    // The account's only membership, asked about: copied where it is answered.
    if (organizationId !== undefined && raised === 1)
      return queryWrite(() =>
        members.findOneAndUpdate({ ...filter, organizationId }, update, { returnDocument: "after" })
      ).pipe(Effect.map((membership) => ({ account, reached: membership === null ? 0 : 1, membership })))
    return queryWrite(() => members.updateMany(filter, update)).pipe(
      Effect.map((result) => ({ account, reached: result.matchedCount }))
    )
  }
  return <E>(accountId: string, write: Effect.Effect<AccountDocument | null, E>, organizationId?: string) =>
    fences.copyingAccount(accountId)(
      (fence, raised) =>
        Effect.flatMap(write, (account) =>
          account === null
            ? Effect.succeed<Copied & { lifted: boolean }>({ account, reached: 0, lifted: false })
            : Effect.map(copyOnto(account, fence, raised, organizationId), (copied) => ({
                ...copied,
                lifted: copied.reached === raised
              }))
        ),
      (done) => done.lifted
    )
}
