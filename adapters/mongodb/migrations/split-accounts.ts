import { Effect } from "effect"
import type { Db } from "mongodb"
import type { AccountDocument } from "../consistency/index.ts"
import { attemptWrite, query, queryWrite } from "../driver.ts"

/** A member as stored before accounts and memberships were apart: one document was both. */
interface SingleMember {
  readonly _id: string
  readonly username: string
  readonly usernameKey: string
  readonly email: string
  readonly passwordHash: string
  readonly accountActiveStatus: boolean
  readonly createdAt: Date
  readonly sessionEpoch: number
}

/**
 * Splits each member stored in the earlier shape into its account and its membership, once. Each
 * step is idempotent (the account is inserted under the member's id; the membership is rewritten
 * only while it still has the old shape), so two instances starting together, or one stopped
 * halfway, leave the same result. Runs before the indexes of the new shape are made.
 */
export const splitAccounts = (db: Db) =>
  Effect.gen(function* () {
    const members = db.collection<SingleMember & { accountId?: string }>("members")
    const accounts = db.collection<AccountDocument>("accounts")
    const old = yield* query(() => members.find({ accountId: { $exists: false } }).toArray())
    for (const member of old) {
      yield* attemptWrite(() =>
        accounts.insertOne({
          _id: member._id,
          username: member.username,
          usernameKey: member.usernameKey,
          email: member.email,
          passwordHash: member.passwordHash,
          accountActiveStatus: member.accountActiveStatus,
          createdAt: member.createdAt
        })
      ).pipe(Effect.catchTag("DuplicateKey", () => Effect.void))
      yield* queryWrite(() =>
        members.updateOne(
          { _id: member._id, accountId: { $exists: false } },
          {
            $set: { accountId: member._id, accountEpoch: 0, membershipEpoch: member.sessionEpoch ?? 0 },
            $unset: { passwordHash: "", sessionEpoch: "" }
          }
        )
      )
    }
  })
