// Better Auth 1.7 on bun:sqlite (tools/better-auth, installed from its own lock file on first use),
// loaded as Roster is: a session read and the members list of an organisation of ten, with the
// owner's session. Held against Roster on SQLite with a member's session, in the same run.
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { spawnSync } from "bun"
import { startBun } from "./servers.ts"
import { type Measured, wrkWarmed } from "./wrk.ts"

const tool = "tools/better-auth"

/** Better Auth's answer to each load of Roster's it is held against, by Roster's load name. */
export const measureBetterAuth = async (
  core: number,
  options: Parameters<typeof wrkWarmed>[2]
): Promise<Record<string, Measured>> => {
  if (!existsSync(join(tool, "node_modules", "better-auth")))
    spawnSync(["npm", "ci", "--prefix", tool, "--no-audit", "--no-fund", "--loglevel=error"], {
      stdout: "inherit",
      stderr: "inherit"
    })
  const directory = mkdtempSync(join(tmpdir(), "roster-bench-better-auth-"))
  const server = await startBun(
    join(tool, "server.ts"),
    { BETTER_AUTH_DB: join(directory, "auth.db") },
    core,
    /listening (\S+) (\S+)/
  )
  try {
    const [, cookie = "", organizationId = ""] = server.ready
    const get = (path: string) => [{ method: "GET" as const, path, headers: { cookie } }]
    return {
      "GET /api/v1/auth/me": await wrkWarmed(server.base, get("/api/auth/get-session"), options),
      "GET /api/v1/team/members": await wrkWarmed(
        server.base,
        get(`/api/auth/organization/list-members?organizationId=${organizationId}`),
        options
      )
    }
  } finally {
    await server.stop()
    rmSync(directory, { recursive: true, force: true })
  }
}

/** Roster on SQLite over Better Auth on bun:sqlite, for each load both answered. */
export const printAgainstBetterAuth = (
  roster: { readonly results: Record<string, { readonly requestsPerSecond: number }> } | undefined,
  betterAuth: Record<string, Measured> | undefined
) => {
  if (roster === undefined || betterAuth === undefined) return []
  console.log("\nRoster on SQLite against Better Auth 1.7 on bun:sqlite, a session each, in this run")
  return Object.entries(betterAuth).map(([load, theirs]) => {
    const ours = roster.results[load]?.requestsPerSecond ?? Number.NaN
    const ratio = ours / theirs.requestsPerSecond
    console.log(
      `  ${load.padEnd(40)}${ours.toFixed(0).padStart(9)}${theirs.requestsPerSecond.toFixed(0).padStart(9)}` +
        `${ratio.toFixed(1).padStart(7)}×  goal ≥ 8×${theirs.non2xx > 0 ? ` (${theirs.non2xx} non-2xx)` : ""}`
    )
    return { load, roster: ours, betterAuth: theirs.requestsPerSecond, ratio }
  })
}
