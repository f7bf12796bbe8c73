// Two processes started at the same moment on one new SQLite file (issue 79): under Bun, mapping
// the `-shm` file to watch for commits dropped SQLite's locks on it, so the next process to open
// the file rebuilt the shared memory under the running one, which crashed with `Bus error`.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"

const cleanup: Array<() => void> = []
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step()
})

/**
 * The byte of the `-shm` file every process with the database open holds a read lock on, so the
 * first one to open it (the only one that may rebuild it) knows it is alone: SQLite's "DMS" slot,
 * after the eight lock slots that start at byte 120 (`UNIX_SHM_DMS` in os_unix.c).
 */
const aliveByte = 128

/** The processes holding a POSIX lock on `byte` of the file `inode`, as Linux lists them. */
const lockHolders = (inode: number, byte: number) =>
  readFileSync("/proc/locks", "utf8")
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, kind, , , , file, start, end]) => {
      if (kind !== "POSIX" || file === undefined) return false
      const [from, to] = [Number(start), end === "EOF" ? Infinity : Number(end)]
      return Number(file.split(":")[2]) === inode && from <= byte && byte <= to
    })
    .map(([, , , , pid]) => Number(pid))

const startTogether = async (directory: string) => {
  const started = await Promise.allSettled(
    [0, 1].map(() => startServer(scriptCommand("start"), { ROSTER_DATA_DIR: directory }))
  )
  for (const result of started) if (result.status === "fulfilled") cleanup.push(result.value.kill)
  return started.map((result) => {
    if (result.status === "rejected") throw result.reason
    return result.value
  })
}

const ready = async (server: RunningServer) => (await fetch(`${server.url}/health/ready`)).status

describe("two Roster processes started together on one new SQLite file", () => {
  it("both start and serve, each keeping SQLite's hold on the shared memory", {
    timeout: 120_000
  }, async () => {
    for (let round = 0; round < 5; round++) {
      const directory = mkdtempSync(join(tmpdir(), "roster-together-"))
      cleanup.push(() => rmSync(directory, { recursive: true, force: true }))
      const servers = await startTogether(directory)
      expect(await Promise.all(servers.map(ready))).toEqual([200, 200])
      const holders = lockHolders(statSync(join(directory, "roster.db-shm")).ino, aliveByte)
      for (const server of servers) expect(holders).toContain(server.process.pid)
      for (const server of servers) expect(server.output()).not.toMatch(/panic|Bus error/)
      for (const step of cleanup.splice(0).reverse()) step()
    }
  })
})
