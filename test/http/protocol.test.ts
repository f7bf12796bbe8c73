import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { makeScryptPasswordHasher } from "../../adapters/crypto/index.ts"
import { HashingBusy, MemberStore, PasswordHasher, StoreUnavailable } from "../../core/index.ts"
import {
  type Answer,
  changedStore,
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi
} from "../support/http.ts"
import { fastScrypt } from "../support/roster.ts"

const role = { name: "Readers", roleKey: "readers" }

/** A member store whose `page` fails as given, the rest working: a database in trouble. */
const memberStoreListing = (failure: Effect.Effect<never, StoreUnavailable>) =>
  changedStore(MemberStore, (store) => ({ ...store, page: () => failure }))

describe("request bodies", () => {
  it.each([
    ["*/*", { "content-type": "*/*" }],
    ["no content type", {}],
    ["application/json", { "content-type": "application/json" }],
    ["application/json with charset", { "content-type": "application/json; charset=utf-8" }],
    ["text/plain", { "content-type": "text/plain" }]
  ])("are read as JSON with %s", async (_, headers) => {
    const api = await startApi({ mode: "open" })
    const request = new Request("http://localhost/api/v1/team/role/add", {
      method: "POST",
      headers,
      body: JSON.stringify(role)
    })
    const response = await api.web.handler(request)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ id: 1, roleKey: "readers", activeStatus: true })
  })

  it("that are not JSON are a 400 problem and change nothing", async () => {
    const api = await startApi({ mode: "open" })
    for (const rawBody of ["{not json", "", "null", "[]", '"text"']) {
      expectProblem(await api.call("POST", "/api/v1/team/role/add", { rawBody }), 400, "validation_failed")
    }
    expect((await api.call("GET", "/api/v1/team/roles")).body).toEqual([])
  })

  it("over the limit are a 413 problem, announced or not", async () => {
    const api = await startApi({ mode: "open", maxBodyBytes: 256 })
    const big = { ...role, name: "x".repeat(300) }
    expectProblem(await api.call("POST", "/api/v1/team/role/add", { body: big }), 413, "payload_too_large")
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify(big)))
        controller.close()
      }
    })
    const streamed = await api.web.handler(
      new Request("http://localhost/api/v1/team/role/add", {
        method: "POST",
        body: chunked,
        duplex: "half"
      } as RequestInit)
    )
    expect(streamed.status).toBe(413)
    expect((await api.call("GET", "/api/v1/team/roles")).body).toEqual([])
  })
})

describe("routing", () => {
  it("answers an unknown path with a 404 problem", async () => {
    const api = await startApi({ mode: "open" })
    expectProblem(await api.call("GET", "/api/v1/nothing-here"), 404, "not_found")
  })

  it("matches paths exactly as published", async () => {
    const api = await startApi({ mode: "open" })
    expectProblem(await api.call("GET", "/API/v1/team/roles"), 404, "not_found")
    expect((await api.call("GET", "/api/v1/team/roles")).status).toBe(200)
  })

  it("answers a known path with the wrong method with 405 and Allow", async () => {
    const api = await startApi({ mode: "open" })
    const answer = await api.call("GET", "/api/v1/team/add")
    expectProblem(answer, 405, "method_not_allowed")
    expect(answer.headers.get("allow")).toBe("POST")
    const detail = await api.call("PUT", "/api/v1/team/role-permission-detail/7")
    expectProblem(detail, 405, "method_not_allowed")
    expect(detail.headers.get("allow")?.split(", ").sort()).toEqual(["DELETE", "GET", "HEAD"])
  })
})

describe("failures of the store and of the code", () => {
  it("answers 503 when the store is unreachable, and readiness says so", async () => {
    const down = Effect.fail(new StoreUnavailable())
    const api = await startApi({ mode: "open", override: memberStoreListing(down) })
    expectProblem(await api.call("GET", "/api/v1/team/members"), 503, "unavailable")
    expect((await api.call("GET", "/health/live")).status).toBe(200)
  })

  it("answers a bug with a bare 500 problem and logs the cause instead", async () => {
    const secret = "mongodb://admin:hunter2@db.internal"
    const api = await startApi({ mode: "open", override: memberStoreListing(Effect.die(new Error(secret))) })
    const answer = await api.call("GET", "/api/v1/team/members")
    expectProblem(answer, 500, "internal")
    expect(answer.text).not.toContain("hunter2")
    expect(answer.text).not.toMatch(/at .*\.ts/)
    const logged = api.logs.at(-1)?.error ?? ""
    expect(logged).toContain("db.internal")
    expect(logged).not.toContain("hunter2")
  })
})

describe("request ids and logs", () => {
  it("echoes a well-formed X-Request-Id and generates one otherwise", async () => {
    const api = await startApi({ mode: "open" })
    const echoed = await api.call("GET", "/health/live", { headers: { "x-request-id": "abc-123" } })
    expect(echoed.headers.get("x-request-id")).toBe("abc-123")
    const generated = new Set<string | null>()
    for (const unfit of ['bad id {"x":1}', "x".repeat(200), undefined]) {
      const headers = unfit === undefined ? {} : { "x-request-id": unfit }
      const replaced = await api.call("GET", "/health/live", { headers })
      // A random per-process prefix and a counter: unique across instances, no UUID per request.
      expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{13}[0-9a-z]+$/)
      generated.add(replaced.headers.get("x-request-id"))
    }
    expect(generated.size).toBe(3)
  })

  it("writes one line per request with method, path, status, duration and id, and no secrets", async () => {
    const api = await startApi()
    const role = await api.call("POST", "/api/v1/team/role/add", {
      token: masterKey,
      body: { name: "R", roleKey: "r" }
    })
    const body = {
      username: "ada",
      email: "ada@example.com",
      password,
      activestatus: true,
      roleId: role.body.id
    }
    await api.call("POST", "/api/v1/team/add", { token: masterKey, body })
    const login = await api.call("POST", "/api/v1/auth/login?next=/x", {
      body: { username: "ada", password }
    })
    expect(api.logs).toHaveLength(3)
    expect(api.logs[2]).toMatchObject({ method: "POST", path: "/api/v1/auth/login", status: 200 })
    expect(api.logs[2]?.requestId).toBe(login.headers.get("x-request-id"))
    expect(api.logs[2]?.durationMs).toBeGreaterThanOrEqual(0)
    const written = JSON.stringify(api.logs)
    for (const secret of [password, masterKey, login.body.token]) expect(written).not.toContain(secret)
  })
})

describe("open local mode", () => {
  const open = async () => startApi({ mode: "open" })

  it("refuses requests a web page could send: another host, another origin, cross-site", async () => {
    const api = await open()
    for (const [headers, code] of [
      [{ host: "rebind.evil.example:3000" }, "forbidden"],
      [{ origin: "https://evil.example" }, "cross_site"],
      [{ origin: "null" }, "cross_site"],
      [{ "sec-fetch-site": "cross-site" }, "cross_site"]
    ] as const) {
      const answer = await api.call("POST", "/api/v1/team/role/add", { body: role, headers })
      expectProblem(answer, 403, code)
    }
    expect((await api.call("GET", "/api/v1/team/roles")).body).toEqual([])
  })

  it("serves local clients, browsers on a loopback origin included", async () => {
    const api = await open()
    for (const headers of [
      { host: "127.0.0.1:3000" },
      { host: "[::1]:3000" },
      { origin: "http://localhost:5173" }
    ]) {
      expect((await api.call("GET", "/api/v1/team/roles", { headers })).status).toBe(200)
    }
  })

  it("refuses credentials that are not a bearer token instead of ignoring them", async () => {
    const api = await open()
    for (const authorization of ["Basic YWRhOnNlY3JldA==", "Bearer ", "Bearer not-a-session"]) {
      const answer = await api.call("GET", "/api/v1/team/roles", { headers: { authorization } })
      expectProblem(answer, 401, "unauthorized")
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/)
    }
  })
})

const hasher = makeScryptPasswordHasher(fastScrypt)
const slowPasswordChecks = Layer.succeed(PasswordHasher)({
  hash: hasher.hash,
  verify: (hash, password) => Effect.sleep("100 millis").pipe(Effect.andThen(hasher.verify(hash, password)))
})

const busyHasher = Layer.succeed(PasswordHasher)({
  hash: () => Effect.fail(new HashingBusy({ retryAfterSeconds: 1 })),
  verify: () => Effect.fail(new HashingBusy({ retryAfterSeconds: 1 }))
})

describe("a flood of password hashes", () => {
  it("is refused at once with 503 and Retry-After, and the refused login attempt is given back", async () => {
    const api = await startApi({ throttle: { maxFailuresPerAccount: 2 }, override: busyHasher })
    await api.call("POST", "/api/v1/team/role/add", { body: { name: "R", roleKey: "r" }, token: masterKey })
    for (let i = 0; i < 4; i++) {
      const answer = await api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password } })
      expectProblem(answer, 503, "unavailable")
      expect(answer.headers.get("retry-after")).toBe("1")
    }
    const add = await api.call("POST", "/api/v1/team/add", {
      body: { username: "ada", email: "ada@example.com", password, activestatus: true, roleId: 1 },
      token: masterKey
    })
    expectProblem(add, 503, "unavailable")
    expect((await api.call("GET", "/api/v1/team/members", { token: masterKey })).body).toEqual([])
  })
})

describe("password checks beyond the edge's bound", () => {
  it("are refused with 503 and Retry-After before they count an attempt, and admitted again once one ends", async () => {
    const api = await startApi({
      throttle: { maxFailuresPerAccount: 1 },
      passwordChecksAtOnce: 1,
      override: slowPasswordChecks
    })
    await memberWithPermissions(api, "ada", [1])
    const login = () =>
      api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password: "wrong password" } })
    const [first, ...refused] = await Promise.all([login(), login(), login()])
    expectProblem(first as Answer, 401, "unauthorized")
    for (const answer of refused) {
      expectProblem(answer, 503, "unavailable")
      expect(answer.headers.get("retry-after")).toBe("1")
      expect(answer.headers.get("x-request-id")).not.toBeNull()
    }
    // Only the admitted attempt counted: one more wrong password is the one the account may fail.
    expectProblem(await login(), 429, "rate_limited")
    expect(api.logs.filter((entry) => entry.status === 503)).toHaveLength(2)
  })
})

describe("a client that hangs up", () => {
  it("does not stop the use case half-way: a correct login still gives its attempt back", async () => {
    const api = await startApi({ throttle: { maxFailuresPerAccount: 2 }, override: slowPasswordChecks })
    await memberWithPermissions(api, "ada", [1])
    for (let i = 0; i < 4; i++) {
      const hangUp = new AbortController()
      const request = new Request("http://localhost/api/v1/auth/login", {
        method: "POST",
        body: JSON.stringify({ username: "ada", password }),
        signal: hangUp.signal
      })
      const answered = api.web.handler(request)
      // Hang up while the password is being checked: the attempt is counted, not yet given back.
      await new Promise((resolve) => setTimeout(resolve, 30))
      hangUp.abort()
      await answered.catch(() => undefined)
    }
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(
      (await api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password } })).status
    ).toBe(200)
  })
})
