import { afterEach, describe, expect, it } from "vitest"
import { eventually } from "../support/eventually.ts"
import { startFerretDb } from "../support/ferretdb.ts"
import { freePort, post, type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"
import { mongoUri } from "../support/stores.ts"

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const startOn = async (uri: string, database: string) => {
  const server = await startServer(scriptCommand("start"), { MONGODB_URI: uri, MONGODB_DB: database })
  cleanups.push(server.kill)
  return server
}

const freshDatabase = () => `roster_e2e_${crypto.randomUUID().replaceAll("-", "")}`

const get = (server: RunningServer, path: string) => fetch(`${server.url}${path}`)

const member = (username: string, roleId: number, email = `${username}@example.com`) => ({
  username,
  email,
  password: "a long enough password",
  activestatus: true,
  roleId
})

describe("the service on MongoDB (FerretDB)", () => {
  it("keeps its data across a restart of the service", async () => {
    const database = freshDatabase()
    const first = await startOn(mongoUri(), database)
    const role = await (
      await post(first, "/api/v1/team/role/add", { name: "Staff", roleKey: "staff" })
    ).json()
    expect((await post(first, "/api/v1/team/add", member("ada", role.id))).status).toBe(200)
    first.process.kill("SIGTERM")
    expect(await first.exited).toBe(0)
    const second = await startOn(mongoUri(), database)
    const members = await (await get(second, "/api/v1/team/members")).json()
    expect(members.map((m: { username: string }) => m.username)).toEqual(["ada"])
    expect((await post(second, "/api/v1/team/add", member("ada2", role.id, "ada@example.com"))).status).toBe(
      409
    )
  })

  it("answers 503 while the database is down and recovers by itself when it is back", async () => {
    const ferret = await startFerretDb(`127.0.0.1:${await freePort()}`)
    cleanups.push(ferret.dispose)
    const server = await startOn(ferret.uri, "roster")
    expect((await post(server, "/api/v1/team/role/add", { name: "Staff", roleKey: "staff" })).status).toBe(
      200
    )

    await ferret.stop()
    const during = await get(server, "/api/v1/team/roles")
    expect(during.status).toBe(503)
    expect(during.headers.get("content-type")).toContain("application/problem+json")
    expect((await during.json()).code).toBe("unavailable")
    expect((await get(server, "/health/live")).status).toBe(200)
    expect((await get(server, "/health/ready")).status).toBe(503)

    await ferret.restart()
    await eventually(
      async () => (await get(server, "/health/ready")).status,
      (status) => status === 200,
      { intervalMs: 250 }
    )
    const roles = await (await get(server, "/api/v1/team/roles")).json()
    expect(roles.map((r: { roleKey: string }) => r.roleKey)).toEqual(["staff"])
    expect(server.process.exitCode).toBeNull()
  })

  it("behaves as one service when two instances share the database", async () => {
    const database = freshDatabase()
    const [a, b] = [await startOn(mongoUri(), database), await startOn(mongoUri(), database)] as const
    const either = (i: number) => (i % 2 === 0 ? a : b)

    const roleIds = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const answer = await post(either(i), "/api/v1/team/role/add", {
          name: `Role ${i}`,
          roleKey: `role-${i}`
        })
        return (await answer.json()).id as number
      })
    )
    expect(new Set(roleIds).size).toBe(10)

    const adds = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(either(i), "/api/v1/team/add", member(`member${i}`, roleIds[0] ?? 0, "one@example.com"))
      )
    )
    expect(adds.map((answer) => answer.status).sort()).toEqual([200, ...Array(9).fill(409)])

    const winner = (await (await get(a, "/api/v1/team/members")).json())[0].username as string
    const login = await post(a, "/api/v1/auth/login", {
      username: winner,
      password: "a long enough password"
    })
    const { token } = await login.json()
    const me = await fetch(`${b.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } })
    expect((await me.json()).member.username).toBe(winner)

    // Five failures per account in a window, counted across both instances. The windows are fixed
    // 15-minute slots of the clock: start well inside one, so the six attempts share it.
    const window = 15 * 60 * 1000
    const left = window - (Date.now() % window)
    if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 100))
    const wrong = { username: winner, password: "not the password" }
    const failures = []
    for (let i = 0; i < 6; i++) failures.push((await post(either(i), "/api/v1/auth/login", wrong)).status)
    expect(failures).toEqual([401, 401, 401, 401, 401, 429])
  })
})
