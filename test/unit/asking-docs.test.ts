// Runs the in-process example of "Asking Roster" (docs/authorizing.md) as written, its imports of
// the package pointed at this checkout's sources.
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const page = readFileSync("docs/authorizing.md", "utf8")
const example = /```ts file=asking-in-process\.ts\n([\s\S]*?)```/u.exec(page)?.[1]
mkdirSync(join("node_modules", ".cache"), { recursive: true })
const work = mkdtempSync(join("node_modules", ".cache", "asking-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe("the Asking Roster page's in-process example", () => {
  it("answers granted, not_granted and not_member, as the page says", () => {
    expect(example, "docs/authorizing.md holds the example").toBeDefined()
    const file = join(work, "asking-in-process.ts")
    writeFileSync(
      file,
      (example ?? "")
        .replaceAll('"roster-service/core"', JSON.stringify(resolve("core/index.ts")))
        .replaceAll('"roster-service/composition"', JSON.stringify(resolve("app/roster-layer.ts")))
    )
    const run = spawnSync("node_modules/.bin/bun", [file], { encoding: "utf8", timeout: 60_000 })
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout.trim())).toEqual([
      { allowed: true, reason: "granted" },
      { allowed: false, reason: "not_granted" },
      { allowed: false, reason: "not_member" }
    ])
  })
})
