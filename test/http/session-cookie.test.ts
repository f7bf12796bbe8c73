import { describe, expect, it } from "vitest"
import {
  type Answer,
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"

const own = { origin: "http://localhost" }
const fetched = { "sec-fetch-site": "same-origin" }

/** Signs `username` in as the console does, and returns the cookie's `name=value` and its attributes. */
const consoleSignIn = async (api: TestApi, username: string, headers: Record<string, string> = own) => {
  const answer = await api.call("POST", "/api/v1/auth/login", {
    body: { username, password },
    headers: { "roster-session": "cookie", ...headers }
  })
  return { answer, setCookie: answer.headers.get("set-cookie") ?? "" }
}

const cookieOf = (setCookie: string) => setCookie.split(";")[0] ?? ""

const roleCount = async (api: TestApi) =>
  (await api.call("GET", "/api/v1/team/roles", { token: masterKey })).body.length as number

const asConsole = (
  api: TestApi,
  cookie: string,
  method: string,
  path: string,
  headers = {},
  body?: unknown
) => api.call(method, path, { headers: { cookie, ...headers }, ...(body === undefined ? {} : { body }) })

const expectCleared = (answer: Answer) =>
  expect(answer.headers.get("set-cookie")).toMatch(
    /^roster_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Strict/
  )

describe("the console's session cookie", () => {
  it("is set by a sign-in from the service's own pages that asks for it, never answered in the body", async () => {
    const api = await startApi()
    await memberWithPermissions(api, "ada", [1])
    const { answer, setCookie } = await consoleSignIn(api, "ada")
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.token).toBe("")
    expect(answer.body.member.username).toBe("ada")
    expect(setCookie).toMatch(/^roster_session=[^;]{20,}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Strict$/)
    const maxAge = Number(/Max-Age=(\d+)/.exec(setCookie)?.[1])
    const expires = (Date.parse(answer.body.expiresAt) - Date.now()) / 1000
    expect(Math.abs(maxAge - expires)).toBeLessThan(5)
    expect(answer.headers.get("cache-control")).toBe("no-store")

    const amiss = await api.call("POST", "/api/v1/auth/login", {
      body: { username: "ada", password },
      headers: { "roster-session": "token" }
    })
    expect(expectProblem(amiss, 400, "validation_failed").errors).toEqual([
      { path: "headers.roster-session", message: "Expected cookie, or no Roster-Session header" }
    ])
    const plain = await api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password } })
    expect(plain.headers.get("set-cookie")).toBeNull()
    expect(plain.body.token).toMatch(/\S{20,}/)
  })

  it("is Secure everywhere but on a loopback address", async () => {
    const api = await startApi({ publicOrigin: "https://roster.example.com" })
    await memberWithPermissions(api, "ada", [1])
    const { setCookie } = await consoleSignIn(api, "ada", { origin: "https://roster.example.com" })
    expect(setCookie).toMatch(/; HttpOnly; SameSite=Strict; Secure$/)
  })

  it("authenticates requests from the service's own origin, reads and writes", async () => {
    const api = await startApi()
    await memberWithPermissions(api, "ada", [1, 3])
    const cookie = cookieOf((await consoleSignIn(api, "ada")).setCookie)
    const me = await asConsole(api, cookie, "GET", "/api/v1/auth/me", fetched)
    expect(me.status, me.text).toBe(200)
    expect(me.body.member.username).toBe("ada")
    const added = await asConsole(api, cookie, "POST", "/api/v1/team/role/add", own, {
      name: "Ops",
      roleKey: "ops"
    })
    expect(added.status, added.text).toBe(200)
    const noBrowser = await asConsole(api, cookie, "GET", "/api/v1/auth/me")
    expect(noBrowser.body.member.username).toBe("ada")
    // An address the user typed or bookmarked is the user's own request.
    const typed = await asConsole(api, cookie, "GET", "/api/v1/auth/me", { "sec-fetch-site": "none" })
    expect(typed.body.member.username).toBe("ada")
  })

  it("from another origin or site is refused with 403 cross_site, and changes nothing", async () => {
    const api = await startApi({ corsOrigins: ["https://app.example.com"] })
    await memberWithPermissions(api, "ada", [1, 3])
    const cookie = cookieOf((await consoleSignIn(api, "ada")).setCookie)
    const before = await roleCount(api)
    for (const headers of [
      { origin: "https://evil.example" },
      // A page the CORS setting allows may call with tokens, never with the console's cookie.
      { origin: "https://app.example.com" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" }
    ]) {
      const body = { name: "Evil", roleKey: "evil" }
      expectProblem(
        await asConsole(api, cookie, "POST", "/api/v1/team/role/add", headers, body),
        403,
        "cross_site"
      )
      expectProblem(await asConsole(api, cookie, "GET", "/api/v1/team/members", headers), 403, "cross_site")
    }
    expect(await roleCount(api)).toBe(before)
    // Only the API authenticates: a sibling site's link to the console still opens it.
    const api2 = await startApi({ consoleDirectory: "dist/console" })
    const linked = await asConsole(api2, cookie, "GET", "/console/", { "sec-fetch-site": "same-site" })
    expect(linked.status).toBe(200)
    const { answer } = await consoleSignIn(api, "ada", { origin: "https://evil.example" })
    expectProblem(answer, 403, "cross_site")
  })

  it("gives way to a Bearer header, which always wins", async () => {
    const api = await startApi()
    await memberWithPermissions(api, "ada", [1])
    const grace = await memberWithPermissions(api, "grace", [1])
    const cookie = cookieOf((await consoleSignIn(api, "ada")).setCookie)
    const me = await api.call("GET", "/api/v1/auth/me", {
      token: grace.token,
      headers: { cookie, ...fetched }
    })
    expect(me.body.member.username).toBe("grace")
    const bad = await api.call("GET", "/api/v1/auth/me", { token: "not-a-token", headers: { cookie } })
    expectProblem(bad, 401, "unauthorized")
    // The cookie of another origin does not matter when a Bearer header authenticates.
    const elsewhere = await api.call("GET", "/api/v1/auth/me", {
      token: grace.token,
      headers: { cookie, "sec-fetch-site": "cross-site" }
    })
    expect(elsewhere.status).toBe(200)
  })

  it("is cleared by logout, which ends its session; a stale cookie is cleared when refused", async () => {
    const api = await startApi()
    await memberWithPermissions(api, "ada", [1])
    const cookie = cookieOf((await consoleSignIn(api, "ada")).setCookie)
    const out = await asConsole(api, cookie, "POST", "/api/v1/auth/logout", own)
    expect(out.status, out.text).toBe(200)
    expect(out.body.revoked).toBe(true)
    expectCleared(out)
    const after = await asConsole(api, cookie, "GET", "/api/v1/auth/me", fetched)
    expectProblem(after, 401, "unauthorized")
    expectCleared(after)
  })

  it("in open local mode, a request without a cookie keeps full access; a signed-in one acts as its member", async () => {
    const api = await startApi({ mode: "open" })
    const role = await api.call("POST", "/api/v1/team/role/add", {
      body: { name: "Readers", roleKey: "readers" }
    })
    await api.call("POST", "/api/v1/team/role-permission-detail", {
      body: { roleId: role.body.id, permissionId: 1 }
    })
    const added = await api.call("POST", "/api/v1/team/add", {
      body: { username: "ada", email: "ada@example.com", password, activestatus: true, roleId: role.body.id }
    })
    expect(added.status, added.text).toBe(200)
    expect((await api.call("GET", "/api/v1/auth/me", { headers: fetched })).body.principal).toBe("open_local")
    const cookie = cookieOf((await consoleSignIn(api, "ada")).setCookie)
    const me = await asConsole(api, cookie, "GET", "/api/v1/auth/me", fetched)
    expect(me.body.principal).toBe("member")
    expectProblem(
      await asConsole(api, cookie, "POST", "/api/v1/team/role/add", own, { name: "X", roleKey: "x" }),
      403,
      "forbidden"
    )
  })
})
