import { randomUUID } from "node:crypto"
import { Cause, Effect, Exit, Option, Predicate } from "effect"
import type { Db, Filter } from "mongodb"
import { query } from "../driver.ts"
import { abandonedAfter } from "./timeouts.ts"

/** A fence as the documents it guards carry it: its id and when it went up. */
export interface Fence {
  readonly id: string
  readonly at: Date
}

/** A document a snapshot copies from (a membership, a role): the fences of the writes under way. */
export interface Fenced {
  readonly fences?: Array<Fence>
}

/** Whether a write to what the document holds is under way (or was left so by a dead process). */
export const isFenced = (document: Fenced) => (document.fences?.length ?? 0) > 0

export interface FencedDocument extends Fenced {
  readonly _id: string | number
}

/** What a session document carries for the snapshot `session-lookup.ts` keeps on it. */
export interface Snapshotted {
  readonly _id: string
  readonly memberId: string
  readonly organizationId: string
  readonly snapshot?: unknown
  /** Raised by every fence over the session: a snapshot is stored only under the version read. */
  readonly snapshotVersion?: number
}

/** The sessions of the organisation that copy the role, or have no snapshot yet. */
export const roleSessions = (organizationId: string, roleId: number): Filter<Snapshotted> => ({
  organizationId,
  $or: [{ "snapshot.member.roleId": roleId }, { snapshot: { $exists: false } }]
})

export const newFence = (): Fence => ({ id: randomUUID(), at: new Date() })

/** Takes the snapshots of the sessions `filter` finds away, and moves their version on. */
export const dropSnapshots = (db: Db, filter: Filter<Snapshotted>) =>
  query(() =>
    db
      .collection<Snapshotted>("sessions")
      .updateMany(filter, { $inc: { snapshotVersion: 1 }, $unset: { snapshot: "" } })
  )

/** A write that failed and can no longer take effect: a refusal, not a lost or timed-out command. */
export const outcomeKnown = (exit: Exit.Exit<unknown, unknown>) => {
  if (Exit.isSuccess(exit)) return true
  if (Cause.hasDies(exit.cause) || Cause.hasInterrupts(exit.cause)) return false
  const error = Cause.findErrorOption(exit.cause)
  return Option.isSome(error) && !Predicate.isTagged(error.value, "StoreUnavailable")
}

/**
 * What follows a write behind a fence: the fence comes down (`lift`), unless the write's outcome is
 * unknown (it stays up, see `outcomeKnown`) or the write took it down itself (`liftedBy` what it answered).
 */
export const liftAfter =
  <A>(lift: Effect.Effect<void>, liftedBy: (written: A) => boolean) =>
  (exit: Exit.Exit<A, unknown>) =>
    !outcomeKnown(exit) || (Exit.isSuccess(exit) && liftedBy(exit.value)) ? Effect.void : lift

/** How long a fence may stand before it is taken for one a dead process left (see `abandonedAfter`). */
export const abandonedAfterMs = abandonedAfter.fenceMs
