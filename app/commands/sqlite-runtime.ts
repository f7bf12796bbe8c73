import { spawnSync } from "node:child_process"
import { createRequire } from "node:module"

/** Bun on the PATH (as under `bunx`), else the one the `bun` package installed, if any. */
const bunExecutables = () => {
  const found = ["bun"]
  try {
    found.push(createRequire(import.meta.url).resolve("bun/bin/bun.exe"))
  } catch {
    // Not installed beside Roster: the PATH's, or none.
  }
  return found
}

/**
 * Runs this very command again under Bun when the Node running it has no SQLite driver (Node before
 * 22.5, whose `#!/usr/bin/env node` `npx` and `bunx` both honour) and the store is SQLite: the
 * command works whatever Node is first on the PATH. Without Bun either, the store says what to do.
 */
export const onRuntimeWithSqlite = async (environment: NodeJS.ProcessEnv) => {
  if (process.versions.bun !== undefined || "Deno" in globalThis) return
  if ((environment.MONGODB_URI ?? "") !== "" || environment.ROSTER_STORE === "mongodb") return
  if (
    await import("node:sqlite").then(
      () => true,
      () => false
    )
  )
    return
  const script = process.argv[1]
  if (script === undefined) return
  for (const bun of bunExecutables()) {
    const run = spawnSync(bun, [script, ...process.argv.slice(2)], { stdio: "inherit", env: environment })
    if (run.error === undefined) process.exit(run.status ?? 1)
  }
}
