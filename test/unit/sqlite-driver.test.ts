import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { openNodeSqlite } from "../../adapters/sqlite/index.ts"

const directories: Array<string> = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

describe("node:sqlite, the driver of Deno and of Node from 22.5", () => {
  it("opens a file where the runtime has it, and otherwise refuses naming what to do instead", async () => {
    const directory = mkdtempSync(join(tmpdir(), "roster-driver-"))
    directories.push(directory)
    const hasDriver = await import("node:sqlite" as string).then(
      () => true,
      () => false
    )
    const opening = openNodeSqlite(join(directory, "roster.db"))
    if (hasDriver) {
      const db = await opening
      expect(db.get("SELECT 1 + 1 AS two")).toEqual({ two: 2 })
      db.close()
    } else {
      // Every way out, named: another runtime, or another store.
      for (const choice of [/Bun/u, /Node 22\.5 or later/u, /MONGODB_URI/u, /ROSTER_STORE=memory/u])
        await expect(opening).rejects.toThrow(choice)
    }
  })
})
