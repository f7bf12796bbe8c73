import { Effect, Exit } from "effect"
import type { Db } from "mongodb"
import { query } from "./driver.ts"
import {
  dropSnapshots,
  type FencedDocument,
  newFence,
  roleCopyLifting,
  roleCopyRaising,
  roleSessions,
  settled
} from "./fences.ts"

interface CopyingRole extends FencedDocument {
  readonly copyVersion?: number
  readonly permissionCopy?: ReadonlyArray<number>
}

/**
 * `sessionFences(db).ofRole` for a write of the role's permission record that knows the ids it left
 * there (`idsAfter`; undefined when it changed nothing). Its fence comes down with those ids as the
 * role's copy (`role-lookup.ts`), so the next read of the role is one read rather than two and a
 * write: but only when this fence is the only one standing and the copy's version is the one its
 * raising made. Every raising and every lifting of a fence on the role moves that version on, so
 * a write of the record that began after this one, or that ended after this one went up, leaves
 * the version elsewhere, and the fence then comes down without a copy (the next read takes one).
 */
export const recordFence = (db: Db) => {
  const roles = db.collection<CopyingRole>("roles")
  return (organizationId: string, roleId: number) =>
    <A, E, R>(write: Effect.Effect<A, E, R>, idsAfter: (written: A) => ReadonlyArray<number> | undefined) =>
      Effect.suspend(() => {
        const fence = newFence()
        const role = { _id: roleId, organizationId }
        const raise = query(() =>
          roles.findOneAndUpdate(
            role,
            { $push: { fences: fence }, ...roleCopyRaising },
            { returnDocument: "after" }
          )
        ).pipe(Effect.tap(() => dropSnapshots(db, roleSessions(organizationId, roleId))))
        const lift = query(() => roles.updateOne(role, { $pull: { fences: fence }, ...roleCopyLifting }))
        const liftCopying = (version: number, ids: ReadonlyArray<number>) =>
          query(() =>
            roles.updateOne(
              { ...role, copyVersion: version, fences: { $size: 1 } },
              {
                $pull: { fences: fence },
                $set: { permissionCopy: [...ids].sort((a, b) => a - b) },
                ...roleCopyLifting
              }
            )
          ).pipe(Effect.flatMap((lifted) => (lifted.modifiedCount === 1 ? Effect.void : lift)))
        return Effect.flatMap(raise, (raised) =>
          Effect.onExit(write, (exit) => {
            if (!settled(exit)) return Effect.void
            const ids = Exit.isSuccess(exit) ? idsAfter(exit.value) : undefined
            const version = raised?.copyVersion
            return (version === undefined || ids === undefined ? lift : liftCopying(version, ids)).pipe(
              Effect.ignore
            )
          })
        )
      })
}
