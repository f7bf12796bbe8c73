import type { SqliteConnection } from "./connection.ts"

/**
 * Tells, each time it is asked, whether any connection (this process's writer, or another process)
 * committed to the file since it was last asked: `PRAGMA data_version` on the reading connection,
 * which opens and closes a read transaction each time. The first answer is yes. The WAL-index
 * header in the `-shm` file would tell it without a lock, mapped into memory, but nothing may open
 * that file beside SQLite: closing any descriptor of a file drops every POSIX lock the process
 * holds on it, SQLite's own among them, and the next process to open the database then rebuilds
 * the shared memory under the running ones (a `Bus error` under Bun; see docs/deploying.md).
 */
export const commitWatch = (reader: SqliteConnection) => {
  let seen: unknown
  return () => {
    const now = reader.get("PRAGMA data_version")?.data_version
    if (now === seen) return false
    seen = now
    return true
  }
}
