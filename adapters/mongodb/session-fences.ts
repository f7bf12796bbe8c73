import { randomUUID } from "node:crypto"
import { Cause, Effect, Exit, Option, Predicate } from "effect"
import type { Db, Filter } from "mongodb"
import { query } from "./driver.ts"

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

interface Source {
  readonly collection: string
  readonly filter: Filter<FencedDocument>
  /** What else the fence's raising changes on the documents: copies they carry of others. */
  readonly raising?: { readonly $unset: Record<string, "">; readonly $inc: Record<string, number> }
  /** What else its lifting changes: the version of those copies, moved on again. */
  readonly lifting?: { readonly $inc: Record<string, number> }
}

/** What a write changes that snapshots copy: the sessions that may copy it, and its documents. */
interface Guarded {
  readonly sessions: Filter<Snapshotted>
  readonly sources: ReadonlyArray<Source>
}

/**
 * Roles: a fence over one takes away the copy of its permissions it carries (`role-lookup.ts`), and
 * moves that copy's version on as it goes up and as it comes down, so a copy read before is never
 * stored after (see also `record-fences.ts`).
 */
const rolesWhere = (filter: Filter<FencedDocument>): Source => ({
  collection: "roles",
  filter,
  raising: { $unset: { permissionCopy: "" }, $inc: { copyVersion: 1 } },
  lifting: { $inc: { copyVersion: 1 } }
})

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
export const settled = (exit: Exit.Exit<unknown, unknown>) => {
  if (Exit.isSuccess(exit)) return true
  if (Cause.hasDies(exit.cause) || Cause.hasInterrupts(exit.cause)) return false
  const error = Cause.findErrorOption(exit.cause)
  return Option.isSome(error) && !Predicate.isTagged(error.value, "StoreUnavailable")
}

/** How long a fence may stand before it is taken for one a dead process left: far past any write. */
export const abandonedAfterMs = 10 * 60 * 1000

/**
 * Runs a write that changes what session snapshots copy (a membership and its account's copy, a
 * role's standing, its permissions) behind a fence. First the fence goes up on the documents the
 * write changes, then the sessions that may copy them lose their snapshots and their version moves
 * on; then the write; then the fence comes down. A session read in full keeps a snapshot only if
 * none of the documents it read carried a fence and its version is still the one it read: so a
 * read from before the write is never stored after it, whether the session is old or begun
 * meanwhile. A process that dies mid-write, or a write whose outcome is unknown, leaves its fence
 * up: those documents' sessions are read in full until fences older than `abandonedAfterMs` are
 * taken down (at each start, and every five minutes while a process runs).
 */
export const sessionFences = (db: Db) => {
  const fencedWith =
    (guarded: Guarded) =>
    <A, E, R>(write: (fence: Fence) => Effect.Effect<A, E, R>) =>
      Effect.suspend(() => {
        const fence = newFence()
        const raise = Effect.andThen(
          Effect.forEach(
            guarded.sources,
            ({ collection, filter, raising }) =>
              query(() =>
                db
                  .collection<FencedDocument>(collection)
                  .updateMany(filter, { $push: { fences: fence }, ...raising })
              ),
            { discard: true }
          ),
          dropSnapshots(db, guarded.sessions)
        )
        const lift = Effect.forEach(
          guarded.sources,
          ({ collection, filter, lifting }) =>
            query(() =>
              db
                .collection<FencedDocument>(collection)
                .updateMany(filter, { $pull: { fences: fence }, ...lifting })
            ),
          { discard: true }
        ).pipe(Effect.ignore)
        return Effect.andThen(
          raise,
          Effect.onExit(write(fence), (exit) => (settled(exit) ? lift : Effect.void))
        )
      })
  const fenced =
    (guarded: Guarded) =>
    <A, E, R>(write: Effect.Effect<A, E, R>) =>
      fencedWith(guarded)(() => write)
  const membership = (accountId: string, organizationId: string): Guarded => ({
    sessions: { memberId: accountId, organizationId },
    sources: [{ collection: "members", filter: { accountId, organizationId } }]
  })
  return {
    /** The account's memberships in every organisation, and their sessions. */
    ofAccount: (accountId: string) =>
      fenced({
        sessions: { memberId: accountId },
        sources: [{ collection: "members", filter: { accountId } }]
      }),
    /** One membership, and its sessions. */
    ofMembership: (accountId: string, organizationId: string) =>
      fenced(membership(accountId, organizationId)),
    /** A membership being made: the write stores it with the fence already up. */
    joining: (accountId: string, organizationId: string) => fencedWith(membership(accountId, organizationId)),
    /** The role, and the sessions of the organisation that copy it or have no snapshot yet. */
    ofRole: (organizationId: string, roleId: number) =>
      fenced({
        sessions: roleSessions(organizationId, roleId),
        sources: [rolesWhere({ _id: roleId, organizationId })]
      }),
    /** Every membership and role of the organisation, and its sessions. */
    ofOrganization: (organizationId: string) =>
      fenced({
        sessions: { organizationId },
        sources: [{ collection: "members", filter: { organizationId } }, rolesWhere({ organizationId })]
      })
  }
}
