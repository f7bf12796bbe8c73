import { Effect } from "effect"
import type { Db } from "mongodb"
import type { StoredRole } from "../consistency/index.ts"
import { query, queryWrite } from "../driver.ts"

/** A permission record as stored before its role's document carried it: a document of its own. */
interface SeparateRecord {
  readonly _id: number
  readonly roleId: number
  readonly permissionIds: Array<number>
  readonly updatedAt: Date
  readonly outbox?: Array<unknown>
}

/**
 * Moves each permission record stored in its own document (`role_permissions`) into its role's
 * document, once, and takes away the copies roles carried of them. Each step is idempotent (a role
 * takes a record only while it carries none; a record is deleted only once its role carries it, or
 * when its role is gone, and only with no audit entry still waiting on it), so two instances
 * starting together, or one stopped halfway, leave the same result. Runs after the relay has moved
 * what waited on the records.
 */
export const moveRoleRecordsIntoRoles = (db: Db) =>
  Effect.gen(function* () {
    const roles = db.collection<StoredRole & { permissionCopy?: unknown; copyVersion?: unknown }>("roles")
    const records = db.collection<SeparateRecord>("role_permissions")
    const separate = yield* query(() => records.find().toArray())
    for (const record of separate) {
      // Role ids are one sequence across organisations: the id alone names the record's role.
      const owner = { _id: record.roleId }
      yield* queryWrite(() =>
        roles.updateOne(
          { ...owner, record: { $exists: false } },
          {
            $set: {
              record: { id: record._id, permissionIds: record.permissionIds, updatedAt: record.updatedAt }
            }
          }
        )
      )
      const carried = yield* query(() =>
        roles.countDocuments({ ...owner, "record.id": record._id }, { limit: 1 })
      )
      const roleGone = (yield* query(() => roles.countDocuments(owner, { limit: 1 }))) === 0
      if (carried > 0 || roleGone)
        yield* queryWrite(() => records.deleteOne({ _id: record._id, "outbox.0": { $exists: false } }))
    }
    yield* queryWrite(() =>
      roles.updateMany(
        { $or: [{ permissionCopy: { $exists: true } }, { copyVersion: { $exists: true } }] },
        { $unset: { permissionCopy: "", copyVersion: "" } }
      )
    )
  })
