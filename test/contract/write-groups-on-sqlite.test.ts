// Group commit on a real SQLite file (Bun's driver): writes that arrive together share one commit,
// none is answered before it, and one write's failure undoes only that write.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Deferred, Effect, Exit } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { openBunSqlite, type SqliteConnection } from "../../adapters/sqlite/connection.ts"
import { writeGroups } from "../../adapters/sqlite/write-groups.ts"

let directory: string
let writer: SqliteConnection
let reader: SqliteConnection
let commits: number

beforeEach(async () => {
  directory = mkdtempSync(join(tmpdir(), "roster-groups-"))
  const path = join(directory, "groups.db")
  const opened = await openBunSqlite(path)
  commits = 0
  writer = {
    ...opened,
    exec: (sql) => {
      if (sql === "COMMIT") commits += 1
      opened.exec(sql)
    }
  }
  writer.exec("PRAGMA journal_mode = WAL")
  writer.exec("PRAGMA foreign_keys = ON")
  writer.exec("CREATE TABLE parents (id INTEGER PRIMARY KEY)")
  writer.exec(
    "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, " +
      "parent INTEGER REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)"
  )
  commits = 0
  reader = await openBunSqlite(path)
})

afterEach(() => {
  reader.close()
  writer.close()
  rmSync(directory, { recursive: true, force: true })
})

const names = () => reader.all("SELECT name FROM items ORDER BY id").map((row) => row.name)
const insert =
  (name: string, parent: number | null = null) =>
  (db: SqliteConnection) =>
    db.run("INSERT INTO items (name, parent) VALUES (?, ?)", name, parent).changes

describe("group commit on SQLite", () => {
  it("commits the writes that arrive together once, and none is visible or answered before that", async () => {
    let scheduled: (() => void) | undefined
    const groups = writeGroups(writer, (commit) => {
      scheduled = commit
    })
    const joined = Array.from({ length: 50 }, (_, i) => groups.join(insert(`item ${i}`)))
    expect(joined.map((write) => write.result)).toEqual(Array(50).fill(1))
    expect(names(), "another connection sees nothing before the commit").toEqual([])
    expect(joined.some((write) => Deferred.isDoneUnsafe(write.committed))).toBe(false)
    scheduled?.()
    expect(commits).toBe(1)
    for (const write of joined)
      expect(Exit.isSuccess(await Effect.runPromiseExit(Deferred.await(write.committed)))).toBe(true)
    expect(names()).toHaveLength(50)
  })

  it("undoes only the write that failed, and the others of its group commit", async () => {
    const groups = writeGroups(writer)
    const first = groups.join(insert("a"))
    expect(() => groups.join(insert("a"))).toThrow(/UNIQUE/)
    const third = groups.join(insert("b"))
    expect(first.committed).toBe(third.committed)
    await Effect.runPromise(Deferred.await(third.committed))
    expect(names()).toEqual(["a", "b"])
    expect(commits).toBe(1)
  })

  it("refuses every write of a group whose commit fails, and keeps none of them", async () => {
    const groups = writeGroups(writer)
    const good = groups.join(insert("a"))
    // A foreign key checked at commit: the commit itself fails.
    const bad = groups.join(insert("orphan", 42))
    const outcomes = await Promise.all(
      [good, bad].map((write) => Effect.runPromiseExit(Deferred.await(write.committed)))
    )
    expect(outcomes.every(Exit.isFailure)).toBe(true)
    expect(names()).toEqual([])
    const later = groups.join(insert("c"))
    await Effect.runPromise(Deferred.await(later.committed))
    expect(names(), "the next group starts afresh").toEqual(["c"])
  })

  it("opens a new group once the last one committed", async () => {
    const groups = writeGroups(writer)
    const first = groups.join(insert("a"))
    await Effect.runPromise(Deferred.await(first.committed))
    const second = groups.join(insert("b"))
    expect(second.committed).not.toBe(first.committed)
    await Effect.runPromise(Deferred.await(second.committed))
    expect([names(), commits]).toEqual([["a", "b"], 2])
  })
})
