import { describe, expect, it } from "vitest"
import { addRole, expectProblem, masterKey, password, startApi, type TestApi } from "../support/http.ts"
import { parsePrometheus, sampleOf } from "../support/prometheus.ts"
import { createUser, scimFor } from "../support/scim.ts"

const metricsToken = "metrics-token-with-enough-entropy-0123456789"

const scrape = async (api: TestApi, token = masterKey) => {
  const answer = await api.call("GET", "/metrics", { token })
  expect(answer.status, answer.text).toBe(200)
  expect(answer.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8")
  return { text: answer.text, families: parsePrometheus(answer.text) }
}

const addMember = (api: TestApi, roleId: number) =>
  api.call("POST", "/api/v1/team/add", {
    token: masterKey,
    body: { username: "ada", email: "ada@example.com", password, activestatus: true, roleId }
  })

describe("GET /metrics", () => {
  it("is not served unless an operator turned metrics on", async () => {
    const api = await startApi()
    expect((await api.call("GET", "/metrics", { token: masterKey })).status).toBe(404)
  })

  it("is read with the master key or the metrics token; anyone else is refused", async () => {
    const api = await startApi({ metrics: { token: metricsToken } })
    await scrape(api, masterKey)
    await scrape(api, metricsToken)
    expectProblem(await api.call("GET", "/metrics"), 401, "unauthorized")
    expectProblem(await api.call("GET", "/metrics", { token: "not-the-token" }), 401, "unauthorized")
    const role = await addRole(api, "crew", { token: masterKey })
    await addMember(api, role.body.id)
    const session = await api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password } })
    expectProblem(await api.call("GET", "/metrics", { token: session.body.token }), 401, "unauthorized")
  })

  it("is open to anyone in open local mode, as everything is", async () => {
    const api = await startApi({ mode: "open", metrics: {} })
    expect((await api.call("GET", "/metrics")).status).toBe(200)
  })

  it("counts requests by route template, logins by outcome and replays, naming no one", async () => {
    const api = await startApi({ metrics: {} })
    const role = await addRole(api, "crew", { token: masterKey })
    const member = await addMember(api, role.body.id)
    for (let i = 0; i < 2; i++)
      await api.call("GET", `/api/v1/team/roles/${role.body.id}`, { token: masterKey })
    await api.call("GET", `/api/v1/team/members/${member.body.id}`, { token: masterKey })
    await api.call("GET", "/api/v1/no/such/route", { token: masterKey })
    await api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password } })
    await api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password: "wrong password" } })
    const keyed = {
      token: masterKey,
      headers: { "idempotency-key": "k-1" },
      body: { name: "N", roleKey: "n" }
    }
    await api.call("POST", "/api/v1/team/role/add", keyed)
    await api.call("POST", "/api/v1/team/role/add", keyed)

    const { text, families } = await scrape(api)
    const requests = (labels: Record<string, string>) =>
      sampleOf(families, "roster_http_requests_total", labels)
    expect(requests({ method: "GET", route: "/api/v1/team/roles/{id}", status: "200" })).toBe(2)
    expect(requests({ method: "GET", route: "/api/v1/team/members/{id}", status: "200" })).toBe(1)
    expect(requests({ method: "GET", route: "unmatched", status: "404" })).toBe(1)
    expect(requests({ method: "POST", route: "/api/v1/team/role/add", status: "200" })).toBe(3)
    expect(
      sampleOf(families, "roster_http_request_duration_seconds_count", {
        method: "GET",
        route: "/api/v1/team/roles/{id}",
        status_class: "2xx"
      })
    ).toBe(2)
    expect(sampleOf(families, "roster_logins_total", { outcome: "ok" })).toBe(1)
    expect(sampleOf(families, "roster_logins_total", { outcome: "failed" })).toBe(1)
    expect(sampleOf(families, "roster_idempotent_replays_total")).toBe(1)
    expect(sampleOf(families, "process_resident_memory_bytes")).toBeGreaterThan(1_000_000)
    expect(sampleOf(families, "process_cpu_seconds_total")).toBeGreaterThan(0)
    for (const secret of [member.body.id, "ada", "ada@example.com", masterKey, password]) {
      expect(text).not.toContain(secret)
    }
  })

  it("counts SCIM requests by their route templates too, never by the ids in their paths", async () => {
    const api = await startApi({ metrics: {} })
    const scim = await scimFor(api)
    const user = await createUser(scim, "metered@example.com")
    await scim.call("GET", `/Users/${user.id}`)
    await scim.call("GET", "/Users")
    await scim.call("GET", "/Nowhere/at/all")
    const { text, families } = await scrape(api)
    const requests = (labels: Record<string, string>) =>
      sampleOf(families, "roster_http_requests_total", labels)
    expect(requests({ method: "GET", route: "/scim/v2/Users/{id}", status: "200" })).toBe(1)
    expect(requests({ method: "GET", route: "/scim/v2/Users", status: "200" })).toBe(1)
    expect(requests({ method: "POST", route: "/scim/v2/Users", status: "201" })).toBe(1)
    expect(requests({ method: "GET", route: "unmatched", status: "404" })).toBe(1)
    expect(text).not.toContain(user.id)
  })

  it("counts the provider's deliveries by event type and outcome", async () => {
    const api = await startApi({ mode: "open", webhook: "unsigned", metrics: {} })
    const delivery = (type: string, id: string) =>
      api.call("POST", "/api/v1/payments/webhook", {
        body: {
          id,
          type,
          created: 1_700_000_000,
          data: { object: { id: "cs_1", client_reference_id: "sub_none" } }
        }
      })
    expect((await delivery("checkout.session.completed", "evt_1")).body.outcome).toBe("unmatched")
    expect((await delivery("customer.created", "evt_2")).body.outcome).toBe("ignored")
    const { families } = await scrape(api)
    const events = (labels: Record<string, string>) =>
      sampleOf(families, "roster_webhook_events_total", labels)
    expect(events({ type: "checkout.session.completed", outcome: "unmatched" })).toBe(1)
    expect(events({ type: "other", outcome: "ignored" })).toBe(1)
  })
})
