import { Effect } from "effect"
import type { Db, Document } from "mongodb"
import { attemptWrite, query, queryWrite } from "../driver.ts"

/**
 * Moves each account's second factor, kept in its account's document by earlier versions, into its
 * own collection (a declared resource's, `mfa_factors`): written there first, then taken from the
 * account only while it is still the one copied, so a stop between leaves both, and the next start
 * finishes. Idempotent: an account without one is not looked at again.
 */
export const moveMfaIntoItsCollection = (db: Db) =>
  Effect.gen(function* () {
    const accounts = db.collection<Document>("accounts")
    const factors = db.collection<Document>("mfa_factors")
    const holding = yield* query(() =>
      accounts.find({ mfa: { $exists: true } }, { projection: { mfa: 1 } }).toArray()
    )
    for (const account of holding) {
      // Copied already by another instance starting now, or by a start that stopped before the unset.
      yield* attemptWrite(() => factors.insertOne({ ...account.mfa, _id: account._id })).pipe(
        Effect.catchTag("DuplicateKey", () => Effect.void)
      )
      yield* queryWrite(() =>
        accounts.updateOne({ _id: account._id, mfa: account.mfa }, { $unset: { mfa: "" } })
      )
    }
  })
