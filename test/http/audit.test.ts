import { describe, expect, it } from "vitest"
import {
  addRole,
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi
} from "../support/http.ts"

const asMaster = { token: masterKey }

describe("GET /api/v1/audit/events", () => {
  it("answers the record newest first, each entry naming its request, with Link paging", async () => {
    const api = await startApi()
    const role = await addRole(api, "staff", { ...asMaster, headers: { "x-request-id": "req-role" } })
    await api.call("PATCH", `/api/v1/team/roles/${role.body.id}`, { ...asMaster, body: { name: "Staffers" } })
    const member = await api.call("POST", "/api/v1/team/add", {
      ...asMaster,
      body: { username: "ada", email: "ada@example.com", password, activestatus: true, roleId: role.body.id }
    })
    const first = await api.call("GET", "/api/v1/audit/events?limit=2", asMaster)
    expect(first.status, first.text).toBe(200)
    expect(first.body.map((entry: { action: string }) => entry.action)).toEqual([
      "member.added",
      "role.updated"
    ])
    expect(first.body[0]).toMatchObject({
      actor: { kind: "master" },
      target: { type: "member", id: member.body.id },
      changes: { username: [null, "ada"], email: [null, "ada@example.com"] },
      requestId: member.headers.get("x-request-id")
    })
    expect(first.body[0].at).toMatch(/^\d{4}-\d\d-\d\dT/u)
    expect(first.text).not.toContain(password)
    const next = /^<([^>]+)>; rel="next"$/u.exec(first.headers.get("link") ?? "")?.[1]
    const second = await api.call("GET", next ?? "", asMaster)
    expect(second.body).toHaveLength(1)
    expect(second.body[0]).toMatchObject({ action: "role.added", requestId: "req-role" })
    expect(second.headers.get("link")).toBeNull()
  })

  it("filters by action, actor, target and time", async () => {
    const api = await startApi()
    const lead = await memberWithPermissions(api, "lead", [1, 3])
    await addRole(api, "by-lead", { token: lead.token })
    const byLead = await api.call("GET", `/api/v1/audit/events?actorId=${lead.member.id}`, asMaster)
    expect(byLead.body.map((entry: { action: string }) => entry.action)).toEqual(["role.added"])
    const aboutLead = await api.call("GET", `/api/v1/audit/events?targetId=${lead.member.id}`, asMaster)
    expect(aboutLead.body.map((entry: { action: string }) => entry.action)).toEqual(["member.added"])
    const grants = await api.call("GET", "/api/v1/audit/events?action=permission.granted", asMaster)
    expect(grants.body).toHaveLength(2)
    const future = await api.call("GET", "/api/v1/audit/events?since=2999-01-01T00:00:00Z", asMaster)
    expect(future.body).toEqual([])
    for (const query of [
      "action=member.eaten",
      "since=yesterday",
      "since=0.5",
      "since=2026-11-23",
      "since=2026-13-45T99:99:99Z",
      "limit=0",
      "cursor=zz",
      "actorId="
    ]) {
      expectProblem(
        await api.call("GET", `/api/v1/audit/events?${query}`, asMaster),
        400,
        "validation_failed"
      )
    }
  })

  it("needs audit.read, and records failed logins", async () => {
    const api = await startApi()
    const reader = await memberWithPermissions(api, "reader", [1])
    const auditor = await memberWithPermissions(api, "auditor", [8])
    expectProblem(await api.call("GET", "/api/v1/audit/events", { token: reader.token }), 403, "forbidden")
    expectProblem(await api.call("GET", "/api/v1/audit/events"), 401, "unauthorized")
    await api.call("POST", "/api/v1/auth/login", {
      body: { username: "reader", password: "not the password" }
    })
    const failed = await api.call("GET", "/api/v1/audit/events?action=login.failed", { token: auditor.token })
    expect(failed.status).toBe(200)
    expect(failed.body).toHaveLength(1)
    expect(failed.body[0]).toMatchObject({
      target: { type: "login", id: reader.member.id },
      actor: { kind: "open" }
    })
    expect(failed.text).not.toContain("not the password")
  })
})
