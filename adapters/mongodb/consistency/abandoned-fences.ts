import { Effect } from "effect"
import type { Db } from "mongodb"
import { query } from "../driver.ts"
import {
  type AccountDocument,
  copiedFrom,
  type MembershipDocument,
  notNewerThan
} from "./account-documents.ts"
import { abandonedAfterMs, type Fence, type FencedDocument } from "./fences.ts"

type Fenced = FencedDocument & Partial<Pick<MembershipDocument, "accountId">>

/**
 * Takes down the fences on memberships and roles older than any write: their writes are over. A
 * membership's account may have changed and never been copied (`accountChanges`): it is copied first.
 */
export const liftAbandonedFences = (db: Db) =>
  Effect.forEach(
    ["members", "roles"],
    (collection) =>
      Effect.gen(function* () {
        const documents = db.collection<Fenced>(collection)
        const before = Date.now() - abandonedAfterMs
        const fenced = yield* query(() =>
          documents
            .find({ "fences.0": { $exists: true } }, { projection: { fences: 1, accountId: 1 } })
            .toArray()
        )
        for (const document of fenced) {
          const abandoned = (document.fences ?? []).filter((fence: Fence) => fence.at.getTime() < before)
          if (abandoned.length === 0) continue
          if (document.accountId !== undefined) yield* copyAccount(db, document._id, document.accountId)
          for (const fence of abandoned) {
            // The fence exactly as read: FerretDB matches pulled documents whole, not as queries.
            yield* query(() => documents.updateOne({ _id: document._id }, { $pull: { fences: fence } }))
          }
        }
      }),
    { discard: true }
  )

const copyAccount = (db: Db, membershipId: string | number, accountId: string) =>
  Effect.gen(function* () {
    const account = yield* query(() => db.collection<AccountDocument>("accounts").findOne({ _id: accountId }))
    if (account === null) return
    yield* query(() =>
      db
        .collection<FencedDocument>("members")
        .updateOne({ _id: membershipId, ...notNewerThan(account) }, { $set: copiedFrom(account) })
    )
  })
