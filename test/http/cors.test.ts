import { describe, expect, it } from "vitest"
import { type Answer, expectProblem, masterKey, startApi } from "../support/http.ts"

const app = "https://app.example.com"
const preflightFrom = (origin: string, method = "POST") => ({
  headers: {
    origin,
    "access-control-request-method": method,
    "access-control-request-headers": "authorization, content-type, idempotency-key"
  }
})

/** No answer ever allows credentials or any origin at all. */
const expectNeverWildcard = (answer: Answer) => {
  expect(answer.headers.get("access-control-allow-origin")).not.toBe("*")
  expect(answer.headers.has("access-control-allow-credentials")).toBe(false)
}

describe("CORS", () => {
  it("is off by default: a preflight is 405 as before, and no answer names an origin", async () => {
    const api = await startApi()
    const preflight = await api.call("OPTIONS", "/api/v1/team/role/add", preflightFrom(app))
    expectProblem(preflight, 405, "method_not_allowed")
    const read = await api.call("GET", "/api/v1/team/roles", { token: masterKey, headers: { origin: app } })
    expect(read.status).toBe(200)
    for (const answer of [preflight, read]) {
      expect(answer.headers.has("access-control-allow-origin")).toBe(false)
      expect(answer.headers.get("vary")).toBeNull()
    }
  })

  it("answers a listed origin's preflight with 204, what the API accepts, and a two-hour cache", async () => {
    const api = await startApi({ corsOrigins: [app, "https://admin.example.com"] })
    const preflight = await api.call("OPTIONS", "/api/v1/team/members/some-id", preflightFrom(app, "PATCH"))
    expect(preflight.status).toBe(204)
    expect(preflight.text).toBe("")
    expect(preflight.headers.get("access-control-allow-origin")).toBe(app)
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, POST, PATCH, DELETE")
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase().split(", ")).toEqual([
      "authorization",
      "content-type",
      "idempotency-key",
      "roster-organization",
      "x-request-id"
    ])
    expect(preflight.headers.get("access-control-max-age")).toBe("7200")
    expect(preflight.headers.get("vary")).toBe("Origin")
    expectNeverWildcard(preflight)
    // Answered at the edge, it is identified and logged like every request.
    expect(preflight.headers.get("x-request-id")).toEqual(expect.any(String))
    expect(api.logs.at(-1)).toMatchObject({ method: "OPTIONS", status: 204 })
  })

  it("lets a listed origin read answers, problems and paging links; other origins get nothing", async () => {
    const api = await startApi({ corsOrigins: [app] })
    for (const roleKey of ["one", "two"]) {
      await api.call("POST", "/api/v1/team/role/add", { token: masterKey, body: { name: roleKey, roleKey } })
    }
    const page = await api.call("GET", "/api/v1/team/roles?limit=1", {
      token: masterKey,
      headers: { origin: app }
    })
    expect(page.status).toBe(200)
    expect(page.headers.get("access-control-allow-origin")).toBe(app)
    expect(page.headers.get("access-control-expose-headers")).toContain("Link")
    expect(page.headers.get("link")).toMatch(/rel="next"/)
    expect(page.headers.get("vary")).toBe("Origin")

    const unauthorized = await api.call("GET", "/api/v1/team/roles", { headers: { origin: app } })
    expectProblem(unauthorized, 401, "unauthorized")
    expect(unauthorized.headers.get("access-control-allow-origin")).toBe(app)
    expect(unauthorized.headers.get("access-control-expose-headers")).toContain("WWW-Authenticate")

    const tooLarge = await api.call("POST", "/api/v1/team/role/add", {
      token: masterKey,
      rawBody: "x".repeat(2 * 1024 * 1024),
      headers: { origin: app }
    })
    expectProblem(tooLarge, 413, "payload_too_large")
    expect(tooLarge.headers.get("access-control-allow-origin")).toBe(app)

    for (const other of ["https://evil.example", "https://app.example.com.evil.example", "null"]) {
      const preflight = await api.call("OPTIONS", "/api/v1/team/role/add", preflightFrom(other))
      expectProblem(preflight, 405, "method_not_allowed")
      const read = await api.call("GET", "/api/v1/team/roles", {
        token: masterKey,
        headers: { origin: other }
      })
      expect(read.status).toBe(200)
      for (const answer of [preflight, read]) {
        expect(answer.headers.has("access-control-allow-origin"), other).toBe(false)
        expect(answer.headers.get("vary"), other).toBe("Origin")
      }
    }
    const notPreflight = await api.call("OPTIONS", "/api/v1/team/role/add", { headers: { origin: app } })
    expectProblem(notPreflight, 405, "method_not_allowed")
    for (const answer of [page, unauthorized, tooLarge, notPreflight]) expectNeverWildcard(answer)
  })

  it("names the origin of a replayed answer's own request, not the one stored with it", async () => {
    const api = await startApi({ corsOrigins: [app, "https://admin.example.com"] })
    const add = (origin: string) =>
      api.call("POST", "/api/v1/team/role/add", {
        token: masterKey,
        body: { name: "Leads", roleKey: "leads" },
        headers: { origin, "idempotency-key": "add-leads" }
      })
    const first = await add(app)
    const replay = await add("https://admin.example.com")
    expect(first.status).toBe(200)
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(replay.headers.get("access-control-allow-origin")).toBe("https://admin.example.com")
  })

  it("in open local mode serves a listed loopback origin, and still refuses remote pages", async () => {
    const devServer = "http://localhost:5173"
    const api = await startApi({ mode: "open", corsOrigins: [devServer] })
    const preflight = await api.call("OPTIONS", "/api/v1/team/role/add", preflightFrom(devServer))
    expect(preflight.status).toBe(204)
    const added = await api.call("POST", "/api/v1/team/role/add", {
      body: { name: "Local", roleKey: "local" },
      headers: { origin: devServer }
    })
    expect(added.status).toBe(200)
    expect(added.headers.get("access-control-allow-origin")).toBe(devServer)
    const remote = await api.call("POST", "/api/v1/team/role/add", {
      body: { name: "Remote", roleKey: "remote" },
      headers: { origin: app }
    })
    expectProblem(remote, 403, "cross_site")
    expect(remote.headers.has("access-control-allow-origin")).toBe(false)
  })
})
