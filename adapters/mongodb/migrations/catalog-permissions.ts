import { Effect } from "effect"
import type { Db } from "mongodb"
import { allPermissionIds, sortedPermissions } from "../../../core/index.ts"
import { query, queryWrite } from "../driver.ts"

/** Names the largest catalog id that roles holding the whole catalog were brought to. */
const extentCounter = "catalog_extent"

/** The catalog's last id before this migration existed: roles holding 1 to 9 then held it all. */
const firstExtent = 9

/**
 * Gives every role that held the whole catalog the permissions appended to it since (API keys'
 * 10, say), so that owners stay owners: once, as the extent reached is recorded, so a permission
 * later taken from such a role is not given back at the next start. Idempotent: a role holding an
 * appended permission already is left alone, and two instances starting together do the same.
 */
export const extendOwnersToCatalog = (db: Db) =>
  Effect.gen(function* () {
    const counters = db.collection<{ _id: string; value: number }>("counters")
    const recorded = yield* query(() => counters.findOne({ _id: extentCounter }))
    const extent = recorded?.value ?? firstExtent
    const catalog = sortedPermissions(allPermissionIds)
    const newest = catalog.at(-1) ?? extent
    if (extent >= newest) return
    const held = catalog.filter((id) => id <= extent)
    const appended = catalog.filter((id) => id > extent)
    yield* queryWrite(() =>
      db
        .collection<{ _id: number; record?: { permissionIds: Array<number> } }>("roles")
        .updateMany(
          { "record.permissionIds": { $all: held, $nin: appended } },
          { $push: { "record.permissionIds": { $each: appended, $sort: 1 } } }
        )
    )
    yield* queryWrite(() =>
      counters.updateOne({ _id: extentCounter }, { $max: { value: newest } }, { upsert: true })
    )
  })
