// The server `npm start` runs reads a request target naming another host as a path of its own:
// the fourth outside review's `//evil.example/…` attacks, sent on a socket as an attacker would.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { rawRequest } from "../support/raw-request.ts"
import { type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"

const masterKey = "fourth-review-origin-master-key-long-enough-0123"
const password = "a long enough passphrase"

let server: RunningServer
let port: number
beforeAll(async () => {
  server = await startServer(scriptCommand("start"), { ROSTER_MASTER_KEY: masterKey })
  port = Number(new URL(server.url).port)
}, 60_000)
afterAll(() => server?.kill())

const call = async (path: string, body: unknown, token = masterKey) => {
  const answer = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  return answer.json()
}

const roleCount = async () =>
  (
    await (
      await fetch(`${server.url}/api/v1/team/roles`, { headers: { authorization: `Bearer ${masterKey}` } })
    ).json()
  ).length as number

describe("npm start, given a request target naming another host", () => {
  it("refuses a write from evil.example carrying the console's cookie, and writes nothing", async () => {
    const role = await call("/api/v1/team/role/add", { name: "Owners", roleKey: "owners" })
    const catalog = await (
      await fetch(`${server.url}/api/v1/team/permissions`, {
        headers: { authorization: `Bearer ${masterKey}` }
      })
    ).json()
    for (const permission of catalog)
      await call("/api/v1/team/role-permission-detail", { roleId: role.id, permissionId: permission.id })
    await call("/api/v1/team/add", {
      username: "ada",
      email: "ada@example.com",
      password,
      activestatus: true,
      roleId: role.id
    })
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "ada", password })
    })
    const { token } = await login.json()
    expect(token).toEqual(expect.any(String))
    const before = await roleCount()
    for (const [index, target] of [
      "//evil.example/api/v1/team/role/add",
      "http://evil.example/api/v1/team/role/add"
    ].entries()) {
      const answer = await rawRequest(
        port,
        "POST",
        target,
        {
          host: `127.0.0.1:${port}`,
          origin: "http://evil.example",
          cookie: `roster_session=${token}`,
          "content-type": "application/json"
        },
        JSON.stringify({ name: "Planted", roleKey: `planted-${index}` })
      )
      expect([403, 404], `${target}: ${answer.text}`).toContain(answer.status)
    }
    expect(await roleCount()).toBe(before)
    // The same cookie from the service's own page writes: the refusals above were for the target alone.
    const own = await rawRequest(
      port,
      "POST",
      "/api/v1/team/role/add",
      {
        host: `127.0.0.1:${port}`,
        origin: `http://127.0.0.1:${port}`,
        cookie: `roster_session=${token}`,
        "content-type": "application/json"
      },
      JSON.stringify({ name: "Ours", roleKey: "ours" })
    )
    expect(own.status, own.text).toBe(200)
    expect(await roleCount()).toBe(before + 1)
  })

  it("never redirects a sign-in to evil.example", async () => {
    for (const target of [
      "//evil.example/api/v1/sso/start?organization=x",
      "http://evil.example/api/v1/sso/start?organization=x"
    ]) {
      const answer = await rawRequest(port, "GET", target, { host: `127.0.0.1:${port}` })
      const location = answer.headers.location
      expect(typeof location === "string" ? location : "", `${target}: ${answer.status}`).not.toMatch(
        /evil\.example/u
      )
    }
  })
})
