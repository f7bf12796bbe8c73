import { chmodSync, closeSync, existsSync, fchmodSync, openSync } from "node:fs"

/** Read and written by their owner alone: the files hold password hashes, e-mails and the audit record. */
const ownerOnly = 0o600

/** A file on disk, as opposed to a database SQLite keeps in memory. */
export const isDatabaseFile = (path: string) =>
  path !== "" && path !== ":memory:" && !path.startsWith("file::memory:")

/**
 * Makes `path` (created empty when missing, as SQLite takes it) and its WAL and shared-memory files
 * readable by their owner alone, whatever the umask: SQLite gives the files it makes beside a
 * database the database's own mode, so the database is made private before it is opened.
 */
export const keepPrivate = (path: string) => {
  if (!isDatabaseFile(path)) return
  if (!existsSync(path)) {
    const fd = openSync(path, "a", ownerOnly)
    try {
      fchmodSync(fd, ownerOnly)
    } finally {
      closeSync(fd)
    }
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, ownerOnly)
    } catch (error) {
      // Not made yet, or gone with the last connection: nothing to keep private.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
    }
  }
}
