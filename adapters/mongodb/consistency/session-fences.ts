import { Effect } from "effect"
import type { Db, Filter } from "mongodb"
import { query } from "../driver.ts"
import {
  dropSnapshots,
  type Fence,
  type FencedDocument,
  liftAfter,
  newFence,
  roleSessions,
  type Snapshotted
} from "./fences.ts"

interface Source {
  readonly collection: string
  readonly filter: Filter<FencedDocument>
}

/** What a write changes that snapshots copy: the sessions that may copy it, and its documents. */
interface Guarded {
  readonly sessions: Filter<Snapshotted>
  readonly sources: ReadonlyArray<Source>
}

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
  /**
   * `write` is handed the fence and how many documents it went up on; `liftedBy` says, of what it
   * answers, that it took the fence down itself (with its last write), so no other write is made.
   */
  const fencedWith =
    (guarded: Guarded) =>
    <A, E, R>(
      write: (fence: Fence, raised: number) => Effect.Effect<A, E, R>,
      liftedBy: (written: A) => boolean = () => false
    ) =>
      Effect.suspend(() => {
        const fence = newFence()
        const raise = Effect.tap(
          Effect.forEach(guarded.sources, ({ collection, filter }) =>
            query(() =>
              db.collection<FencedDocument>(collection).updateMany(filter, { $push: { fences: fence } })
            )
          ),
          () => dropSnapshots(db, guarded.sessions)
        )
        const lift = Effect.forEach(
          guarded.sources,
          ({ collection, filter }) =>
            query(() =>
              db.collection<FencedDocument>(collection).updateMany(filter, { $pull: { fences: fence } })
            ),
          { discard: true }
        ).pipe(Effect.ignore)
        return Effect.flatMap(raise, (raised) =>
          Effect.onExit(
            write(
              fence,
              raised.reduce((sum, result) => sum + result.matchedCount, 0)
            ),
            liftAfter(lift, liftedBy)
          )
        )
      })
  const fenced =
    (guarded: Guarded) =>
    <A, E, R>(write: Effect.Effect<A, E, R>) =>
      fencedWith(guarded)(() => write)
  const account = (accountId: string): Guarded => ({
    sessions: { memberId: accountId },
    sources: [{ collection: "members", filter: { accountId } }]
  })
  const membership = (accountId: string, organizationId: string): Guarded => ({
    sessions: { memberId: accountId, organizationId },
    sources: [{ collection: "members", filter: { accountId, organizationId } }]
  })
  return {
    /**
     * The account's memberships in every organisation, and their sessions, for a write of the
     * account that copies it onto them as it takes the fence down (`account-copies.ts`).
     */
    copyingAccount: (accountId: string) => fencedWith(account(accountId)),
    /** One membership, and its sessions. */
    ofMembership: (accountId: string, organizationId: string) =>
      fenced(membership(accountId, organizationId)),
    /** A membership being made: the write stores it with the fence already up. */
    joining: (accountId: string, organizationId: string) => fencedWith(membership(accountId, organizationId)),
    /** The role, and the sessions of the organisation that copy it or have no snapshot yet. */
    ofRole: (organizationId: string, roleId: number) =>
      fenced({
        sessions: roleSessions(organizationId, roleId),
        sources: [{ collection: "roles", filter: { _id: roleId, organizationId } }]
      }),
    /** Every membership and role of the organisation, and its sessions. */
    ofOrganization: (organizationId: string) =>
      fenced({
        sessions: { organizationId },
        sources: [
          { collection: "members", filter: { organizationId } },
          { collection: "roles", filter: { organizationId } }
        ]
      })
  }
}
