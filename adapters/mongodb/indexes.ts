import { Effect } from "effect"
import { type Db, type IndexDescription, MongoServerError } from "mongodb"
import { query } from "./driver.ts"

/** What the stores rely on: uniqueness is the database's to enforce, not any one instance's. */
const indexes: Record<string, ReadonlyArray<IndexDescription>> = {
  members: [
    { key: { email: 1 }, name: "email_unique", unique: true },
    { key: { usernameKey: 1 }, name: "username_key_unique", unique: true },
    { key: { createdAt: 1, _id: 1 }, name: "creation_order" },
    { key: { roleId: 1, createdAt: 1, _id: 1 }, name: "by_role_in_creation_order" }
  ],
  roles: [{ key: { roleKey: 1 }, name: "role_key_unique", unique: true }],
  role_permissions: [{ key: { roleId: 1 }, name: "one_record_per_role", unique: true }],
  sessions: [{ key: { memberId: 1 }, name: "by_member" }],
  audit_events: [
    { key: { at: -1, _id: -1 }, name: "newest_first" },
    { key: { action: 1, at: -1, _id: -1 }, name: "by_action" },
    { key: { "actor.id": 1, at: -1, _id: -1 }, name: "by_actor" },
    { key: { "target.id": 1, at: -1, _id: -1 }, name: "by_target" },
    { key: { requestKey: 1 }, name: "by_request_key" }
  ],
  subscriptions: [
    { key: { providerSubscriptionId: 1 }, name: "by_provider_subscription" },
    { key: { createdAt: -1, _id: -1 }, name: "newest_first" }
  ]
}

/** Expired sessions, past throttling windows and idempotency keys are deleted by the database, where it can. */
const expiring = ["sessions", "login_attempts", "idempotency_keys"]

const notImplemented = 238

/**
 * Creates the indexes if they are missing; creating an existing one is a no-op, so every instance
 * runs this at start. Returns the collections whose TTL index the server does not support
 * (FerretDB): there, expired documents stay but are never honoured, as every reader checks expiry.
 */
export const ensureIndexes = (db: Db) =>
  Effect.gen(function* () {
    // One index per command: FerretDB fails a batch that repeats indexes it already has.
    for (const [collection, descriptions] of Object.entries(indexes)) {
      for (const { key, ...options } of descriptions) {
        yield* query(() => db.collection(collection).createIndex(key, options))
      }
    }
    const withoutTtl: Array<string> = []
    for (const collection of expiring) {
      const created = yield* query(() =>
        db
          .collection(collection)
          .createIndex({ expiresAt: 1 }, { name: "expire", expireAfterSeconds: 0 })
          .then(
            () => true,
            (error) => {
              if (error instanceof MongoServerError && error.code === notImplemented) return false
              throw error
            }
          )
      )
      if (!created) withoutTtl.push(collection)
    }
    return withoutTtl
  })
