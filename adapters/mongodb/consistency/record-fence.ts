import { Effect, Option } from "effect"
import type { Db } from "mongodb"
import { query } from "../driver.ts"
import { notRemoved } from "./audit-document.ts"
import { dropSnapshots, type Fence, liftAfter, newFence, roleSessions } from "./fences.ts"
import type { StoredRole } from "./role-documents.ts"

/** What a write of a role's record answers, and whether its update took the fence down with it. */
export interface Written<A> {
  readonly value: A
  readonly lifted: boolean
}

/**
 * `sessionFences(db).ofRole` for a change of the permission record a role's document carries. The
 * fence goes up in a write that answers the role as it left it (none when there is no such role),
 * the sessions that copy the role lose their snapshots, and `write` is handed that role and the
 * fence: its update of the record also takes the fence down (`$pull`), so a change is three
 * commands. A write that changed nothing leaves the fence to come down on its own; one whose
 * outcome is unknown leaves it up, as every fence (see `sessionFences`).
 */
export const recordFence = (db: Db) => {
  const roles = db.collection<StoredRole>("roles")
  return (organizationId: string, roleId: number) =>
    <A, E, R>(write: (role: StoredRole, fence: Fence) => Effect.Effect<Written<A>, E, R>) =>
      Effect.suspend(() => {
        const fence = newFence()
        const filter = { _id: roleId, organizationId }
        const raise = query(() =>
          roles.findOneAndUpdate(
            { ...filter, ...notRemoved },
            { $push: { fences: fence } },
            { returnDocument: "after" }
          )
        )
        const lift = query(() => roles.updateOne(filter, { $pull: { fences: fence } })).pipe(Effect.ignore)
        return Effect.flatMap(raise, (role) =>
          role === null
            ? Effect.succeedNone
            : dropSnapshots(db, roleSessions(organizationId, roleId)).pipe(
                Effect.andThen(
                  Effect.onExit(
                    write(role, fence),
                    liftAfter(lift, (written) => written.lifted)
                  )
                ),
                Effect.map((written) => Option.some(written.value))
              )
        )
      })
}
