import { Effect } from "effect"
import type { Db } from "mongodb"
import { query } from "./driver.ts"
import { abandonedAfterMs, type FencedDocument } from "./fences.ts"

/** Takes down the fences on memberships and roles older than any write: their writes are over. */
export const liftAbandonedFences = (db: Db) =>
  Effect.forEach(
    ["members", "roles"],
    (collection) =>
      Effect.gen(function* () {
        const documents = db.collection<FencedDocument>(collection)
        const before = Date.now() - abandonedAfterMs
        const fenced = yield* query(() =>
          documents.find({ "fences.0": { $exists: true } }, { projection: { fences: 1 } }).toArray()
        )
        for (const document of fenced) {
          for (const fence of document.fences ?? []) {
            if (fence.at.getTime() >= before) continue
            // The fence exactly as read: FerretDB matches pulled documents whole, not as queries.
            yield* query(() => documents.updateOne({ _id: document._id }, { $pull: { fences: fence } }))
          }
        }
      }),
    { discard: true }
  )
