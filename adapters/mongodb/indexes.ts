import { Effect } from "effect"
import { type Db, type IndexDescription, MongoServerError } from "mongodb"
import { query } from "./driver.ts"

/**
 * What the hand-written stores rely on (the declared resources' indexes are their kit's): uniqueness
 * is the database's to enforce, not any one instance's. Every
 * query of an organisation's documents names it, so its indexes lead with `organizationId`; accounts
 * (usernames, e-mails) and ids are unique in the deployment, a membership within its organisation.
 */
const indexes: Record<string, ReadonlyArray<IndexDescription>> = {
  accounts: [
    { key: { email: 1 }, name: "email_unique", unique: true },
    { key: { usernameKey: 1 }, name: "username_key_unique", unique: true },
    { key: { pendingSince: 1 }, name: "by_pending_since" }
  ],
  members: [
    { key: { organizationId: 1, accountId: 1 }, name: "one_membership_per_organization", unique: true },
    { key: { accountId: 1, createdAt: 1, organizationId: 1 }, name: "memberships_of_account" },
    { key: { organizationId: 1, createdAt: 1, accountId: 1 }, name: "membership_order_in_organization" },
    {
      key: { organizationId: 1, roleId: 1, createdAt: 1, accountId: 1 },
      name: "by_role_in_membership_order_in_organization"
    }
  ],
  roles: [
    { key: { organizationId: 1, roleKey: 1 }, name: "role_key_unique_in_organization", unique: true },
    { key: { organizationId: 1, _id: 1 }, name: "by_organization" },
    { key: { organizationId: 1, "record.id": 1 }, name: "by_permission_record" }
  ],
  audit_events: [
    { key: { organizationId: 1, at: -1, _id: -1 }, name: "newest_first_in_organization" },
    { key: { organizationId: 1, action: 1, at: -1, _id: -1 }, name: "by_action_in_organization" },
    { key: { organizationId: 1, "actor.id": 1, at: -1, _id: -1 }, name: "by_actor_in_organization" },
    { key: { organizationId: 1, "target.id": 1, at: -1, _id: -1 }, name: "by_target_in_organization" },
    { key: { requestKey: 1 }, name: "by_request_key" },
    { key: { unsent: 1, at: 1, _id: 1 }, name: "unsent_in_order" }
  ]
}

/**
 * Indexes of earlier versions, dropped once their successors exist: the unique role key became
 * unique within an organisation, the orders lead with the organisation, and usernames and e-mails
 * are unique among accounts, which memberships only copy.
 */
const superseded: Record<string, ReadonlyArray<string>> = {
  members: [
    "creation_order",
    "by_role_in_creation_order",
    "email_unique",
    "username_key_unique",
    "creation_order_in_organization",
    "by_role_in_creation_order_in_organization"
  ],
  roles: ["role_key_unique"],
  audit_events: ["newest_first", "by_action", "by_actor", "by_target"],
  // Declared resources' indexes are their kit's (kit-indexes.ts): these orders it no longer needs.
  subscriptions: ["newest_first", "by_provider_subscription", "newest_first_in_organization"],
  group_profiles: ["by_organization"],
  webhook_deliveries: ["newest_first_of_endpoint", "by_due_time", "by_update"],
  // The kit's lead with the same fields (the fences find an organisation's sessions by its own).
  sessions: ["by_member", "by_organization"]
}

const indexNotFound = 27

/**
 * Expired sessions, past throttling windows, idempotency keys and mailed tokens are deleted by the
 * database, where it can.
 */
const expiring = ["sessions", "login_attempts", "idempotency_keys", "account_tokens"]

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
    for (const [collection, names] of Object.entries(superseded)) {
      for (const name of names) {
        yield* query(() =>
          db
            .collection(collection)
            .dropIndex(name)
            .catch((error) => {
              // Dropped already, by an earlier start or by another instance starting now.
              if (error instanceof MongoServerError && error.code === indexNotFound) return
              if (error instanceof MongoServerError && error.codeName === "NamespaceNotFound") return
              throw error
            })
        )
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
