import { describe, expect, it } from "vitest"
import {
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"

const authorizePath = "/api/v1/authorize"

const ask = (
  api: TestApi,
  token: string,
  checks: ReadonlyArray<object>,
  headers: Record<string, string> = {}
) => api.call("POST", authorizePath, { token, body: { checks }, headers })

const answered = async (api: TestApi, token: string, checks: ReadonlyArray<object>) => {
  const answer = await ask(api, token, checks)
  expect(answer.status, answer.text).toBe(200)
  return answer.body.results as ReadonlyArray<Record<string, unknown>>
}

/** Another organisation with a member of its own: what no caller here may learn anything of. */
const memberElsewhere = async (api: TestApi) => {
  const inAcme = { token: masterKey, headers: { "roster-organization": "acme" } }
  await api.call("POST", "/api/v1/organizations", { token: masterKey, body: { name: "Acme", slug: "acme" } })
  const role = await api.call("POST", "/api/v1/team/role/add", {
    ...inAcme,
    body: { name: "Staff", roleKey: "staff" }
  })
  await api.call("POST", "/api/v1/team/role-permission-detail", {
    ...inAcme,
    body: { roleId: role.body.id, permissionId: 1 }
  })
  const member = await api.call("POST", "/api/v1/team/add", {
    ...inAcme,
    body: { username: "wile", email: "wile@acme.example", password, activestatus: true, roleId: role.body.id }
  })
  expect(member.status, member.text).toBe(200)
  return member.body.id as string
}

describe("POST /api/v1/authorize", () => {
  it("answers the caller about itself, in the order asked, by key or id", async () => {
    const api = await startApi()
    const ada = await memberWithPermissions(api, "ada", [5])
    expect(
      await answered(api, ada.token, [
        { permission: "billing.read" },
        { permission: "team.read" },
        { permission: 5 }
      ])
    ).toEqual([
      { permission: "billing.read", member: ada.member.id, allowed: true, reason: "granted" },
      { permission: "team.read", member: ada.member.id, allowed: false, reason: "not_granted" },
      { permission: "billing.read", member: ada.member.id, allowed: true, reason: "granted" }
    ])
  })

  it("answers an API key about itself with member null", async () => {
    const api = await startApi()
    const owner = await memberWithPermissions(api, "owner", [1, 10])
    const made = await api.call("POST", "/api/v1/organization/api-keys", {
      token: owner.token,
      body: { name: "deploys", permissions: ["team.read"] }
    })
    expect(made.status, made.text).toBe(200)
    expect(
      await answered(api, made.body.key, [{ permission: "team.read" }, { permission: "audit.read" }])
    ).toEqual([
      { permission: "team.read", member: null, allowed: true, reason: "granted" },
      { permission: "audit.read", member: null, allowed: false, reason: "not_granted" }
    ])
  })

  it("answers about another member and an inactive one with team.read, and refuses without it", async () => {
    const api = await startApi()
    const ada = await memberWithPermissions(api, "ada", [1])
    const bob = await memberWithPermissions(api, "bob", [8])
    const carol = await memberWithPermissions(api, "carol", [8])
    const off = await api.call("PATCH", `/api/v1/team/members/${carol.member.id}`, {
      token: masterKey,
      body: { activestatus: false }
    })
    expect(off.status, off.text).toBe(200)
    expect(
      await answered(api, ada.token, [
        { permission: "audit.read", member: bob.member.id },
        { permission: "team.read", member: bob.member.id },
        { permission: "audit.read", member: carol.member.id }
      ])
    ).toEqual([
      { permission: "audit.read", member: bob.member.id, allowed: true, reason: "granted" },
      { permission: "team.read", member: bob.member.id, allowed: false, reason: "not_granted" },
      { permission: "audit.read", member: carol.member.id, allowed: false, reason: "inactive" }
    ])
    const refused = expectProblem(
      await ask(api, bob.token, [{ permission: "team.read", member: ada.member.id }]),
      403,
      "forbidden"
    )
    expect(refused.permission).toBe("team.read")
  })

  it("answers another organisation's member exactly as an id nobody has", async () => {
    const api = await startApi()
    const ada = await memberWithPermissions(api, "ada", [1])
    const wile = await memberElsewhere(api)
    const [elsewhere, nobody] = await Promise.all(
      [wile, "no-such-member"].map((member) => ask(api, ada.token, [{ permission: "team.read", member }]))
    )
    expect(elsewhere?.status).toBe(200)
    expect(elsewhere?.text).toBe(nobody?.text.replace("no-such-member", wile))
    expect(elsewhere?.body.results).toEqual([
      { permission: "team.read", member: wile, allowed: false, reason: "not_member" }
    ])
  })

  it("fails the whole request on an unknown permission", async () => {
    const api = await startApi()
    const ada = await memberWithPermissions(api, "ada", [1])
    const byKey = expectProblem(
      await ask(api, ada.token, [{ permission: "team.read" }, { permission: "projects.delete" }]),
      422,
      "unknown_permission"
    )
    expect(byKey.detail).toContain("projects.delete")
    expectProblem(await ask(api, ada.token, [{ permission: 4242 }]), 422, "unknown_permission")
  })

  it("answers a batch of 100 and refuses 101 or none", async () => {
    const api = await startApi()
    const ada = await memberWithPermissions(api, "ada", [1])
    const bob = await memberWithPermissions(api, "bob", [1])
    const hundred = Array.from({ length: 100 }, (_, i) =>
      i % 2 === 0 ? { permission: "team.read" } : { permission: "audit.read", member: bob.member.id }
    )
    const results = await answered(api, ada.token, hundred)
    expect(results).toHaveLength(100)
    expect(results.map((result) => result.reason)).toEqual(
      hundred.map((_, i) => (i % 2 === 0 ? "granted" : "not_granted"))
    )
    expectProblem(
      await ask(api, ada.token, [...hundred, { permission: "team.read" }]),
      400,
      "validation_failed"
    )
    expectProblem(await ask(api, ada.token, []), 400, "validation_failed")
  })

  it("asks the master key to name the member", async () => {
    const api = await startApi()
    const ada = await memberWithPermissions(api, "ada", [1])
    expectProblem(await ask(api, masterKey, [{ permission: "team.read" }]), 422, "member_required")
    const open = await startApi({ mode: "open" })
    expectProblem(
      await open.call("POST", authorizePath, { body: { checks: [{ permission: 1 }] } }),
      422,
      "member_required"
    )
    expect(await answered(api, masterKey, [{ permission: "team.read", member: ada.member.id }])).toEqual([
      { permission: "team.read", member: ada.member.id, allowed: true, reason: "granted" }
    ])
  })

  it("ignores Idempotency-Key: each answer is what is true now, and nothing is audited", async () => {
    const api = await startApi()
    const ada = await memberWithPermissions(api, "ada", [1])
    const audit = async () => (await api.call("GET", "/api/v1/audit/events", { token: masterKey })).text
    const before = await audit()
    const key = { "idempotency-key": "same-question" }
    const first = await ask(api, ada.token, [{ permission: "billing.read" }], key)
    expect(first.body.results[0].allowed).toBe(false)
    await api.call("POST", "/api/v1/team/role-permission-detail", {
      token: masterKey,
      body: { roleId: ada.role.id, permissionId: 5 }
    })
    const afterGrant = await audit()
    const second = await ask(api, ada.token, [{ permission: "billing.read" }], key)
    expect(second.headers.get("idempotent-replayed")).toBeNull()
    expect(second.body.results[0]).toMatchObject({ allowed: true, reason: "granted" })
    expect(afterGrant).not.toBe(before)
    expect(await audit()).toBe(afterGrant)
  })

  it("is counted by answer in roster_authorize_checks_total", async () => {
    const api = await startApi({ metrics: {} })
    const ada = await memberWithPermissions(api, "ada", [1])
    await answered(api, ada.token, [
      { permission: "team.read" },
      { permission: "audit.read" },
      { permission: "billing.read" }
    ])
    const scrape = await api.call("GET", "/metrics", { token: masterKey })
    expect(scrape.text).toMatch(/roster_authorize_checks_total\{allowed="true"\} 1\b/)
    expect(scrape.text).toMatch(/roster_authorize_checks_total\{allowed="false"\} 2\b/)
  })
})

describe("GET /api/v1/team/members?permission=KEY", () => {
  it("lists the holders, inactive ones included as the other filters decide, and refuses an unknown key", async () => {
    const api = await startApi()
    const ada = await memberWithPermissions(api, "ada", [1, 8])
    const bob = await memberWithPermissions(api, "bob", [8])
    await memberWithPermissions(api, "carol", [5])
    await api.call("PATCH", `/api/v1/team/members/${bob.member.id}`, {
      token: masterKey,
      body: { activestatus: false }
    })
    const ids = async (query: string) => {
      const answer = await api.call("GET", `/api/v1/team/members?${query}`, { token: ada.token })
      expect(answer.status, answer.text).toBe(200)
      return (answer.body as ReadonlyArray<{ id: string }>).map((member) => member.id).sort()
    }
    expect(await ids("permission=audit.read")).toEqual([ada.member.id, bob.member.id].sort())
    expect(await ids("permission=audit.read&active=true")).toEqual([ada.member.id])
    expect(await ids("permission=organization.sso.write")).toEqual([])
    expectProblem(
      await api.call("GET", "/api/v1/team/members?permission=projects.delete", { token: ada.token }),
      422,
      "unknown_permission"
    )
  })
})
