import { afterEach, describe, expect, it } from "vitest"
import { post, type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"
import { mongoUri } from "../support/stores.ts"

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const startOn = async (database: string) => {
  const server = await startServer(scriptCommand("start"), { MONGODB_URI: mongoUri(), MONGODB_DB: database })
  cleanups.push(server.kill)
  return server
}

const read = async (server: RunningServer, path: string) => (await fetch(`${server.url}${path}`)).json()

describe("the audit record when the process is killed", () => {
  it("after SIGKILL in the middle of a burst of changes and a restart, each change has exactly one entry", async () => {
    const database = `roster_e2e_${crypto.randomUUID().replaceAll("-", "")}`
    const first = await startOn(database)
    let answered = 0
    const burst = Array.from({ length: 80 }, (_, i) =>
      post(first, "/api/v1/team/role/add", { name: `Role ${i}`, roleKey: `role-${i}` }).then(
        () => answered++,
        () => undefined
      )
    )
    // Killed while changes are in flight: some written with their entry pending, some not at all.
    while (answered < 20) await new Promise((resolve) => setTimeout(resolve, 5))
    first.kill()
    await Promise.allSettled(burst)
    await first.exited

    const second = await startOn(database)
    const roles: Array<{ id: number }> = await read(second, "/api/v1/team/roles?limit=200")
    const entries: Array<{ id: string; target: { id: string } }> = await read(
      second,
      "/api/v1/audit/events?action=role.added&limit=200"
    )
    expect(roles.length).toBeGreaterThanOrEqual(20)
    const targets = entries.map((entry) => entry.target.id)
    expect(new Set(targets).size, "no change recorded twice").toBe(targets.length)
    expect(targets.sort()).toEqual(roles.map((role) => String(role.id)).sort())
  })
})
