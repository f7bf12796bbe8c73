import { Cause, Clock, Effect, Exit } from "effect"
import type { Db } from "mongodb"
import { type AuditEntry, inOrganization, RoleId, RoleInUse, UnknownRole } from "../../../core/index.ts"
import { query, queryWrite } from "../driver.ts"
import { type AuditEntryDocument, notRemoved, pushEntry } from "./audit-document.ts"
import { abandonedAfter } from "./timeouts.ts"

/** What a role document carries to count its holders; the rest of it is the role's. */
export interface HolderCount {
  readonly _id: number
  readonly organizationId?: string
  readonly holders?: number
  readonly holdersChangedAt?: Date
  readonly removed?: boolean
  readonly outbox?: Array<AuditEntryDocument>
}

/**
 * A claim older than this whose member was never written was left by a process that died between
 * the two writes (a request gives up long before): the count may then be corrected to the members
 * that really hold the role.
 */
const abandonedAfterMs = abandonedAfter.roleClaimMs

/** The holder count of the `roles` collection's documents, kept by the role store. */
export const roleHolders = (db: Db) => {
  const roles = db.collection<HolderCount>("roles")
  const members = db.collection<{ roleId: number }>("members")

  const change = (id: number, by: 1 | -1) =>
    inOrganization((organizationId) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        queryWrite(() =>
          roles.updateOne(
            { _id: id, organizationId, ...notRemoved, ...(by < 0 ? { holders: { $gt: 0 } } : {}) },
            { $inc: { holders: by }, $set: { holdersChangedAt: new Date(now) } }
          )
        )
      )
    )

  /** With an entry the role is only marked removed, until the relay has moved the entry. */
  const deleteUnheld = (id: number, entry: AuditEntry | undefined) =>
    inOrganization((organizationId) =>
      queryWrite(() =>
        entry === undefined
          ? roles.findOneAndDelete({ _id: id, organizationId, holders: { $lte: 0 }, ...notRemoved })
          : roles.findOneAndUpdate(
              { _id: id, organizationId, holders: { $lte: 0 }, ...notRemoved },
              { $set: { removed: true }, ...pushEntry(entry) },
              { returnDocument: "before" }
            )
      )
    )

  /** Lowers an abandoned count to zero when no member holds the role; true when it did. */
  const correctAbandoned = (stored: HolderCount) =>
    Effect.gen(function* () {
      const changedAt = stored.holdersChangedAt?.getTime() ?? 0
      if ((yield* Clock.currentTimeMillis) - changedAt < abandonedAfterMs) return false
      const held = yield* query(() =>
        members.countDocuments({ roleId: stored._id, ...notRemoved }, { limit: 1 })
      )
      if (held > 0) return false
      const corrected = yield* queryWrite(() =>
        roles.updateOne(
          {
            _id: stored._id,
            // Unchanged since it was read: null also matches a field that is not there.
            holders: stored.holders ?? { $exists: false },
            holdersChangedAt: stored.holdersChangedAt ?? { $exists: false }
          },
          { $set: { holders: 0 } }
        )
      )
      return corrected.modifiedCount > 0
    })

  const release = (id: RoleId) => Effect.asVoid(change(id, -1))

  return {
    /**
     * Runs `write`, which writes a member into the role, with the role counted one more holder
     * first, so that it cannot be deleted meanwhile; `UnknownRole` when the organisation has no such
     * role. The count is given back when the write fails or `wrote` says it wrote nothing. A write
     * interrupted midway may have been made, so its count is kept, corrected once it is abandoned.
     */
    holding: <A, E, R>(id: RoleId, write: Effect.Effect<A, E, R>, wrote: (answer: A) => boolean) =>
      Effect.gen(function* () {
        const claimed = yield* change(id, 1)
        if (claimed.matchedCount === 0) return yield* new UnknownRole({ roleId: id })
        return yield* Effect.onExit(write, (exit) =>
          Exit.isSuccess(exit)
            ? wrote(exit.value)
              ? Effect.void
              : release(id)
            : Cause.hasInterrupts(exit.cause)
              ? Effect.void
              : release(id)
        )
      }),
    /** Counts one holder fewer, once a member left the role. */
    release,
    /** The deleted document, null when there was none; RoleInUse while a member holds it. */
    remove: (id: RoleId, entry: AuditEntry | undefined) =>
      Effect.gen(function* () {
        let deleted = yield* deleteUnheld(id, entry)
        if (deleted === null) {
          const stored = yield* inOrganization((organizationId) =>
            query(() => roles.findOne({ _id: id, organizationId, ...notRemoved }))
          )
          if (stored === null) return null
          if (!(yield* correctAbandoned(stored))) return yield* new RoleInUse({ roleId: RoleId.make(id) })
          deleted = yield* deleteUnheld(id, entry)
          if (deleted === null) return yield* new RoleInUse({ roleId: RoleId.make(id) })
        }
        return deleted
      })
  }
}

/**
 * Roles stored before holders were counted get the count of their members, once; a role that has a
 * count keeps it (raising it here could race with a release elsewhere).
 */
export const countUncountedHolders = (db: Db) =>
  Effect.gen(function* () {
    const roles = db.collection<HolderCount>("roles")
    const uncounted = yield* query(() => roles.find({ holders: { $exists: false }, ...notRemoved }).toArray())
    for (const role of uncounted) {
      const count = yield* query(() =>
        db.collection("members").countDocuments({ roleId: role._id, ...notRemoved })
      )
      yield* queryWrite(() =>
        roles.updateOne({ _id: role._id, holders: { $exists: false } }, { $set: { holders: count } })
      )
    }
  })
