import { Deferred, Effect } from "effect"
import type { SqliteConnection } from "./connection.ts"

/** One transaction that the writes arriving together share, and whose commit each of them awaits. */
interface Group {
  readonly committed: Deferred.Deferred<void, unknown>
  /** What undid the whole transaction under a write, when something did: every write in it is lost. */
  lost?: unknown
}

/** A write done inside the open group, and the commit its answer must wait for. */
export interface Joined<A> {
  readonly result: A
  readonly committed: Deferred.Deferred<void, unknown>
}

/**
 * Group commit on the writing connection: the writes that arrive while a group is open share its
 * transaction (`BEGIN IMMEDIATE`, so the file's write lock is held from the first of them) and its
 * one fsync, which is most of a write's cost with `synchronous = FULL`. Each write runs in a savepoint
 * of its own, so one that fails undoes only itself. The group commits once the writes that are
 * ready have joined it (`schedule`, by default after the event loop's pending I/O); nobody is
 * answered before the commit that holds their write is on disk, and when it fails, all are refused.
 * `committed` hears of each commit before anybody is answered.
 */
export const writeGroups = (
  db: SqliteConnection,
  schedule: (commit: () => void) => void = setImmediate,
  committed: () => void = () => {}
) => {
  let open: Group | undefined

  const commit = (group: Group) => {
    if (open === group) open = undefined
    if (group.lost !== undefined) return Deferred.doneUnsafe(group.committed, Effect.fail(group.lost))
    try {
      db.exec("COMMIT")
      committed()
      Deferred.doneUnsafe(group.committed, Effect.void)
    } catch (error) {
      try {
        db.exec("ROLLBACK")
      } catch {
        // A failed COMMIT may have rolled back already.
      }
      Deferred.doneUnsafe(group.committed, Effect.fail(error))
    }
  }

  const current = () => {
    if (open !== undefined) return open
    db.exec("BEGIN IMMEDIATE")
    const group: Group = { committed: Deferred.makeUnsafe<void, unknown>() }
    open = group
    schedule(() => commit(group))
    return group
  }

  /** Runs `use` in the open group (opening one); throws what it throws, its own changes undone. */
  const join = <A>(use: (db: SqliteConnection) => A): Joined<A> => {
    const group = current()
    db.exec("SAVEPOINT write")
    try {
      const result = use(db)
      db.exec("RELEASE write")
      return { result, committed: group.committed }
    } catch (error) {
      try {
        db.exec("ROLLBACK TO write")
        db.exec("RELEASE write")
      } catch (undoing) {
        // SQLite undid the whole transaction (an I/O error, a full disk): the group is lost.
        group.lost = undoing
        if (open === group) open = undefined
        try {
          db.exec("ROLLBACK")
        } catch {
          // Already rolled back, as it should be.
        }
      }
      throw error
    }
  }

  /** Commits the open group now: the connection is closing, and what joined it is answered. */
  const flush = () => {
    if (open !== undefined) commit(open)
  }

  return { join, flush }
}
