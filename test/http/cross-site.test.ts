import { describe, expect, it } from "vitest"
import { expectProblem, masterKey, password, startApi, type TestApi } from "../support/http.ts"

const roleCount = async (api: TestApi) =>
  (await api.call("GET", "/api/v1/team/roles", { token: masterKey })).body.length as number

const addRole = (api: TestApi, headers: Record<string, string>, roleKey = "ops") =>
  api.call("POST", "/api/v1/team/role/add", {
    token: masterKey,
    body: { name: "Ops", roleKey, activeStatus: true },
    headers
  })

describe("requests a browser sends from another site", () => {
  it("are refused with 403 cross_site before any work, whatever their credentials", async () => {
    const api = await startApi()
    for (const headers of [
      { origin: "https://evil.example" },
      { origin: "null" },
      { "sec-fetch-site": "cross-site" },
      { origin: "http://localhost:8080" }
    ]) {
      const refused = expectProblem(await addRole(api, headers), 403, "cross_site")
      // The console browsed at another address than the one configured: the detail names the setting.
      expect(refused.detail).toMatch(/ROSTER_PUBLIC_URL/u)
    }
    expect(await roleCount(api)).toBe(0)
  })

  it("a cross-site login form counts nothing: the owner's attempts stay untouched", async () => {
    const api = await startApi({ throttle: { maxFailuresPerAccount: 1, maxFailuresPerClient: 1 } })
    await api.call("POST", "/api/v1/team/role/add", { token: masterKey, body: { name: "S", roleKey: "s" } })
    await api.call("POST", "/api/v1/team/add", {
      token: masterKey,
      body: { username: "ada", email: "ada@example.com", password, activestatus: true, roleId: 1 }
    })
    for (let i = 0; i < 5; i++) {
      const answer = await api.call("POST", "/api/v1/auth/login", {
        rawBody: JSON.stringify({ username: "ada", password: "a wrong guess" }),
        headers: { "content-type": "text/plain", origin: "https://evil.example" }
      })
      expectProblem(answer, 403, "cross_site")
    }
    const login = await api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password } })
    expect(login.status).toBe(200)
  })

  it("are served from the service's own origin, the public origin, a CORS origin, or same-site", async () => {
    const api = await startApi({
      corsOrigins: ["https://app.example.com"],
      publicOrigin: "https://roster.example.com"
    })
    expect((await addRole(api, { origin: "http://localhost" }, "own")).status).toBe(200)
    expect((await addRole(api, { origin: "https://roster.example.com" }, "public")).status).toBe(200)
    expect((await addRole(api, { origin: "https://app.example.com" }, "cors")).status).toBe(200)
    expect((await addRole(api, { "sec-fetch-site": "same-origin" }, "fetched")).status).toBe(200)
    expect((await addRole(api, {}, "plain")).status).toBe(200)
    expect(await roleCount(api)).toBe(5)
  })

  it("leave reads and the provider's webhook alone", async () => {
    const api = await startApi({ webhook: "unsigned" })
    const read = await api.call("GET", "/api/v1/team/roles", {
      token: masterKey,
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" }
    })
    expect(read.status).toBe(200)
    const webhook = await api.call("POST", "/api/v1/payments/webhook", {
      rawBody: "",
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" }
    })
    expect(webhook.status).toBe(200)
  })
})
