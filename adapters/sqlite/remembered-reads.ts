import type { SqliteConnection } from "./connection.ts"

/**
 * How many rows are remembered at most, a list counting each of its rows (a page of members holds
 * up to a thousand); all are forgotten at once when there would be more.
 */
const capacity = 4096

const rowsIn = (value: unknown) => (Array.isArray(value) ? value.length + 1 : 1)

/**
 * Reads remembered until anything is committed to the file. `committed` tells whether another
 * connection (this process's writer, or another process on the file) committed since it was last
 * asked (`commitWatch`), so a remembered read is answered only while nothing at all was committed
 * since it was made: the same answer the statement would give, without running it and decoding
 * its rows again. Off (`remembers` false) for a database in memory, read and written on one
 * connection, which sees no change of version for its own commits.
 */
export const rememberedReads = (reader: SqliteConnection, committed: () => boolean, remembers: boolean) => {
  let checked = false
  let rows = 0
  const remembered = new Map<string, unknown>()
  const forget = () => {
    remembered.clear()
    rows = 0
  }
  const forgetWhenChanged = () => {
    // No request arrives within one synchronous run of the event loop: a version checked in it
    // holds for every read until the run ends, or until this process's writer commits (`recheck`).
    if (checked) return
    checked = true
    queueMicrotask(() => {
      checked = false
    })
    if (committed()) forget()
  }
  const read = <A>(key: string, use: (db: SqliteConnection) => A): A => {
    if (!remembers) return use(reader)
    forgetWhenChanged()
    if (remembered.has(key)) return remembered.get(key) as A
    const value = use(reader)
    const weight = rowsIn(value)
    if (rows + weight > capacity) forget()
    if (weight > capacity) return value
    remembered.set(key, value)
    rows += weight
    return value
  }
  /** Checks the version again before the next read: this process's writer has just committed. */
  const recheck = () => {
    checked = false
  }
  return { read, recheck }
}
