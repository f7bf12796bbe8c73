import { randomUUID } from "node:crypto"
import { Cause, Effect, Exit, Option, Predicate } from "effect"
import type { Db, Filter } from "mongodb"
import { query } from "./driver.ts"

/**
 * What a session document carries for the snapshot `session-lookup.ts` keeps on it: the snapshot,
 * the fences of the writes under way that may change what it copies, and a version each fence
 * raises.
 */
export interface Snapshotted {
  readonly _id: string
  readonly memberId: string
  readonly organizationId: string
  readonly snapshot?: unknown
  readonly fences?: Array<string>
  readonly snapshotVersion?: number
}

/** A write that failed and can no longer take effect: a refusal, not a lost or timed-out command. */
const settled = (exit: Exit.Exit<unknown, unknown>) => {
  if (Exit.isSuccess(exit)) return true
  if (Cause.hasDies(exit.cause) || Cause.hasInterrupts(exit.cause)) return false
  const error = Cause.findErrorOption(exit.cause)
  return Option.isSome(error) && !Predicate.isTagged(error.value, "StoreUnavailable")
}

/**
 * Runs a write that changes what session snapshots copy (a membership, its account's copy, a role's
 * standing, its permissions) behind a fence on the sessions `filter` names. Before the write each
 * loses its snapshot and gains the fence, which no snapshot is taken under; after it, the fence is
 * lifted. A snapshot read before the write can no longer be stored (its version has moved on), and
 * a process that dies mid-write leaves the fence up: those sessions are read in full until they
 * end, never from a copy older than the write.
 */
export const sessionFences = (db: Db) => {
  const sessions = db.collection<Snapshotted>("sessions")
  const fenced =
    (filter: Filter<Snapshotted>) =>
    <A, E, R>(write: Effect.Effect<A, E, R>) =>
      Effect.suspend(() => {
        const fence = randomUUID()
        const raise = query(() =>
          sessions.updateMany(filter, {
            $push: { fences: fence },
            $inc: { snapshotVersion: 1 },
            $unset: { snapshot: "" }
          })
        )
        const lift = query(() =>
          sessions.updateMany({ ...filter, fences: fence }, { $pull: { fences: fence } })
        ).pipe(Effect.ignore)
        return Effect.andThen(
          raise,
          Effect.onExit(write, (exit) => (settled(exit) ? lift : Effect.void))
        )
      })
  return {
    /** The account's sessions, in every organisation. */
    ofAccount: (accountId: string) => fenced({ memberId: accountId }),
    /** The sessions of the organisation whose snapshot holds the role, or that have none yet. */
    ofRole: (organizationId: string, roleId: number) =>
      fenced({
        organizationId,
        $or: [{ "snapshot.member.roleId": roleId }, { snapshot: { $exists: false } }]
      }),
    ofOrganization: (organizationId: string) => fenced({ organizationId })
  }
}

export type SessionFences = ReturnType<typeof sessionFences>
