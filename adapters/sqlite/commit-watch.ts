import type { SqliteConnection } from "./connection.ts"

/** Maps the start of a file into memory, shared with every process that maps it (Bun's `Bun.mmap`). */
export type MapShared = (path: string, bytes: number) => Uint8Array

/**
 * The first copy of the WAL-index header, at the start of the `-shm` file SQLite shares between the
 * connections to a WAL database (https://sqlite.org/walformat.html): every commit rewrites it,
 * this copy last, once the commit is whole.
 */
const headerWords = 12
/** The header's version (`iVersion`) and where its `isInit` byte is: a header SQLite has written. */
const walIndexVersion = 3007000
const isInitByte = 12

const byDataVersion = (reader: SqliteConnection) => {
  let seen: unknown
  return () => {
    const now = reader.get("PRAGMA data_version")?.data_version
    if (now === seen) return false
    seen = now
    return true
  }
}

const byHeader = (header: Uint32Array) => {
  const seen = new Uint32Array(headerWords)
  return () => {
    let changed = false
    for (let word = 0; word < headerWords; word++) {
      const now = header[word] as number
      if (now !== seen[word]) {
        seen[word] = now
        changed = true
      }
    }
    return changed
  }
}

/** The live WAL-index header of `path`, when it can be mapped and is what SQLite itself reads. */
const mappedHeader = (reader: SqliteConnection, path: string, mapShared: MapShared) => {
  if (reader.get("PRAGMA journal_mode")?.journal_mode !== "wal") return undefined
  let bytes: Uint8Array
  try {
    bytes = mapShared(`${path}-shm`, headerWords * 4)
  } catch {
    return undefined
  }
  if (bytes.byteLength < headerWords * 4) return undefined
  const header = new Uint32Array(bytes.buffer, bytes.byteOffset, headerWords)
  // `szPage`, in the host's byte order like every field of the header; 1 stands for 65536.
  const pageSize = new Uint16Array(bytes.buffer, bytes.byteOffset, 8)[7]
  const live =
    header[0] === walIndexVersion &&
    bytes[isInitByte] === 1 &&
    (pageSize === 1 ? 65536 : pageSize) === reader.get("PRAGMA page_size")?.page_size
  return live ? header : undefined
}

/**
 * Tells, each time it is asked, whether any connection (this process's writer, or another process)
 * committed to the file since it was last asked. Where the runtime maps files, it compares the
 * WAL-index header, a read of shared memory; else it asks `PRAGMA data_version`, which opens and
 * closes a read transaction, two locks on the file, each time: the larger part of a remembered
 * read's cost. Either way, the first answer is yes.
 */
export const commitWatch = (reader: SqliteConnection, path: string, mapShared: MapShared | undefined) => {
  const header = mapShared === undefined ? undefined : mappedHeader(reader, path, mapShared)
  return header === undefined ? byDataVersion(reader) : byHeader(header)
}
