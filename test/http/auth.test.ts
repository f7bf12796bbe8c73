import { Duration } from "effect"
import { describe, expect, it } from "vitest"
import {
  type Answer,
  addRole,
  type Credentials,
  everyPermission,
  expectProblem,
  masterKey,
  memberFields,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"

const logIn = (api: TestApi, username: string, secret = password, client?: string) =>
  api.call("POST", "/api/v1/auth/login", {
    body: { username, password: secret },
    ...(client === undefined ? {} : { client })
  })

/** How a call presents itself: a bearer token, raw headers, or nothing. */
const me = (api: TestApi, credentials: Credentials = {}) => api.call("GET", "/api/v1/auth/me", credentials)

/** What a member looks like to clients: no password hash, no session epoch. */
/** How answers name the organisation a deployment starts with. */
const defaultOrganization = { id: "default", slug: "default", name: "Default" }

/** A role and an active member `ada` in it, with the test password. */
const withMember = async (api: TestApi, activestatus = true) => {
  const role = await addRole(api, "staff", { token: masterKey })
  const member = await api.call("POST", "/api/v1/team/add", {
    token: masterKey,
    body: { username: "ada", email: "Ada@Example.com", password, activestatus, roleId: role.body.id }
  })
  expect(member.status, member.text).toBe(200)
  return member.body
}

describe("POST /api/v1/auth/login", () => {
  it.each([
    ["username", "ada"],
    ["e-mail", "ada@example.com"]
  ])("answers a token, its expiry and the member, without password fields, for the %s", async (_, login) => {
    const api = await startApi()
    const member = await withMember(api)
    const answer = await logIn(api, login)
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.token).toMatch(/^rss_/)
    expect(Date.parse(answer.body.expiresAt)).toBeGreaterThan(Date.now())
    expect(Object.keys(answer.body).sort()).toEqual(["expiresAt", "member", "organization", "token"])
    expect(answer.body.organization).toEqual(defaultOrganization)
    expect(answer.body.member).toEqual(member)
    expect(Object.keys(member).sort()).toEqual(memberFields)
    expect(answer.text).not.toContain("$scrypt$")
  })

  it("answers a wrong password and an unknown user with the same 401 body", async () => {
    const api = await startApi()
    await withMember(api)
    const wrong = await logIn(api, "ada", "not the password")
    const unknown = await logIn(api, "nobody", "not the password")
    expectProblem(wrong, 401, "unauthorized")
    expect(unknown.status).toBe(401)
    expect(unknown.body).toEqual(wrong.body)
  })

  it("refuses an inactive member with 403 once the right password is given", async () => {
    const api = await startApi()
    await withMember(api, false)
    expectProblem(await logIn(api, "ada", "not the password"), 401, "unauthorized")
    expectProblem(await logIn(api, "ada"), 403, "forbidden")
  })

  it.each([
    ["no body", undefined],
    ["a missing password", { username: "ada" }],
    ["a numeric username", { username: 42, password }],
    ["an empty username", { username: "", password }]
  ])("answers %s with 400 validation_failed", async (_, body) => {
    const api = await startApi()
    const answer = await api.call("POST", "/api/v1/auth/login", { body })
    expectProblem(answer, 400, "validation_failed")
    expect(Array.isArray(answer.body.errors)).toBe(true)
  })

  it("answers malformed JSON with 400", async () => {
    const api = await startApi()
    expectProblem(await api.call("POST", "/api/v1/auth/login", { rawBody: "{" }), 400, "validation_failed")
  })
})

describe("login throttling", () => {
  const expectRateLimited = (answer: Answer) => {
    expectProblem(answer, 429, "rate_limited")
    const retryAfter = answer.headers.get("retry-after") ?? ""
    expect(retryAfter).toMatch(/^[1-9]\d*$/)
    // Sliding windows: a failure weighs for at most two 15-minute windows.
    expect(Number(retryAfter)).toBeLessThanOrEqual(2 * 15 * 60)
  }

  it("locks an account for the address that failed, even for the right password, not for others", async () => {
    const api = await startApi({ throttle: { maxFailuresPerAccount: 3, maxFailuresPerClient: 100 } })
    await withMember(api)
    for (let i = 0; i < 3; i++)
      expectProblem(await logIn(api, "ada", "wrong guess", "198.51.100.7"), 401, "unauthorized")
    expectRateLimited(await logIn(api, "ada", "wrong guess", "198.51.100.7"))
    expectRateLimited(await logIn(api, "ada@example.com", password, "198.51.100.7"))
    // The owner, elsewhere, with the right password.
    expect((await logIn(api, "ada", password, "192.0.2.80")).status).toBe(200)
  })

  it("locks a client address that fails across many accounts, not other clients", async () => {
    const api = await startApi({ throttle: { maxFailuresPerAccount: 3, maxFailuresPerClient: 10 } })
    await withMember(api)
    for (let i = 0; i < 10; i++) {
      expectProblem(await logIn(api, `user${i}`, "wrong guess", "203.0.113.9"), 401, "unauthorized")
    }
    expectRateLimited(await logIn(api, "ada", password, "203.0.113.9"))
    expect((await logIn(api, "ada", password, "203.0.113.10")).status).toBe(200)
  })
})

describe("GET /api/v1/auth/me", () => {
  it("tells the master key apart from a member", async () => {
    const api = await startApi()
    const asMaster = await me(api, { token: masterKey })
    expect(asMaster.status).toBe(200)
    expect(asMaster.body.principal).toBe("master")
    expect(asMaster.body.permissions).toContain("admin.accounts.write")

    const { member, token } = await memberWithPermissions(api, "reader", [1, 5])
    const asMember = await me(api, { token })
    expect(asMember.status).toBe(200)
    expect(asMember.body).toEqual({
      principal: "member",
      member,
      organization: defaultOrganization,
      permissions: ["team.read", "billing.read"]
    })
    expect(asMaster.body.organization).toEqual(defaultOrganization)
  })

  it("is open_local in open mode without a token", async () => {
    const api = await startApi({ mode: "open" })
    const answer = await me(api)
    expect(answer.status).toBe(200)
    expect(answer.body.principal).toBe("open_local")
    expect(answer.body.permissions).toHaveLength(everyPermission.length)
  })
})

describe("POST /api/v1/auth/logout", () => {
  it("revokes the calling session and only that one", async () => {
    const api = await startApi()
    await withMember(api)
    const first = (await logIn(api, "ada")).body.token
    const second = (await logIn(api, "ada")).body.token
    const logout = await api.call("POST", "/api/v1/auth/logout", { token: first })
    expect(logout.status, logout.text).toBe(200)
    expect(logout.body).toEqual({ revoked: true })
    expectProblem(await me(api, { token: first }), 401, "unauthorized")
    expectProblem(await api.call("POST", "/api/v1/auth/logout", { token: first }), 401, "unauthorized")
    expect((await me(api, { token: second })).status).toBe(200)
  })

  it("lets a session expire after sessionTtl", async () => {
    const api = await startApi({ sessionTtl: Duration.millis(50) })
    await withMember(api)
    const { token, expiresAt } = (await logIn(api, "ada")).body
    expect(Date.parse(expiresAt)).toBeLessThanOrEqual(Date.now() + 50)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expectProblem(await me(api, { token }), 401, "unauthorized")
  })
})

describe("secure mode", () => {
  it.each([
    ["no token", {}],
    ["a garbage token", { token: "rss_garbage" }],
    ["an empty bearer token", { headers: { authorization: "Bearer " } }],
    ["another scheme", { headers: { authorization: `Basic ${btoa(`admin:${masterKey}`)}` } }],
    ["the master key under Basic", { headers: { authorization: `Basic ${masterKey}` } }]
  ])("answers %s with 401 unauthorized", async (_, credentials: Credentials) => {
    const api = await startApi()
    expectProblem(await addRole(api, "ops", credentials), 401, "unauthorized")
    expectProblem(await me(api, credentials), 401, "unauthorized")
  })

  it("gives the master key full access", async () => {
    const api = await startApi()
    const answer = await addRole(api, "ops", { token: masterKey })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body).toMatchObject({ roleKey: "ops", activeStatus: true })
  })

  it("reads the scheme's name in any case, the same way with and without an Idempotency-Key", async () => {
    const api = await startApi()
    for (const [roleKey, scheme, key] of [
      ["lower", "bearer", undefined],
      ["upper", "BEARER", undefined],
      ["keyed", "bearer", "key-1"]
    ] as const) {
      const headers = {
        authorization: `${scheme} ${masterKey}`,
        ...(key === undefined ? {} : { "idempotency-key": key })
      }
      const answer = await addRole(api, roleKey, { headers })
      expect(answer.status, answer.text).toBe(200)
    }
  })
})

describe("open local mode", () => {
  it("gives a caller without a token full access", async () => {
    const api = await startApi({ mode: "open" })
    // A write that needs `team.roles.write`: proves full access when it succeeds.
    const answer = await addRole(api, "ops", {})
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.roleKey).toBe("ops")
  })
})

describe("health", () => {
  it.each(["/health/live", "/health/ready"])(
    "answers %s with 200 ok without a token in secure mode",
    async (path) => {
      const api = await startApi()
      const answer = await api.call("GET", path)
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({ status: "ok" })
    }
  )
})
