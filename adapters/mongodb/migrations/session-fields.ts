import { Effect } from "effect"
import type { AnyBulkWriteOperation, Db } from "mongodb"
import { query, queryWrite } from "../driver.ts"

interface EarlierSession {
  readonly _id: string
  readonly createdAt: Date
  readonly id?: string
  readonly lastSeenAt?: Date
  readonly authTime?: Date
}

/** A field a session of an earlier version may lack: kept whole now, its unique id indexed by the kit. */
const lacking = ["id", "lastSeenAt", "userAgent", "address", "mfaPending", "amr", "authTime"]

/**
 * Sessions stored before they had a public id, a last use, an origin, a pending second factor or
 * their sign-in's proof get what the hand-written store read them as: the id made of their digest's
 * first half (which tells nothing of the token, and is what their owner was shown), last seen and
 * proved when made, by no method known, from nowhere known. The kit reads sessions as they are,
 * and its unique index on `id` holds one per session. Idempotent: a session that has them keeps them.
 */
export const completeSessions = (db: Db) =>
  Effect.gen(function* () {
    const sessions = db.collection<EarlierSession>("sessions")
    const incomplete = yield* query(() =>
      sessions.find({ $or: lacking.map((field) => ({ [field]: { $exists: false } })) }).toArray()
    )
    if (incomplete.length === 0) return
    const completed = incomplete.map(
      (session): AnyBulkWriteOperation<EarlierSession> => ({
        updateOne: {
          filter: { _id: session._id },
          update: {
            $set: {
              id: session.id ?? `ses_${session._id.slice(0, 32)}`,
              lastSeenAt: session.lastSeenAt ?? session.createdAt,
              authTime: session.authTime ?? session.createdAt
            }
          }
        }
      })
    )
    yield* queryWrite(() => sessions.bulkWrite(completed, { ordered: false }))
    for (const [field, value] of [
      ["userAgent", null],
      ["address", null],
      ["mfaPending", false],
      ["amr", []]
    ] as const) {
      yield* queryWrite(() =>
        sessions.updateMany({ [field]: { $exists: false } }, { $set: { [field]: value } })
      )
    }
  })
