import { describe, expect, it } from "vitest"
import { expectProblem, masterKey, password, startApi, type TestApi } from "../support/http.ts"

const acmeHeaders = { "roster-organization": "acme" }
const inAcme = { token: masterKey, headers: acmeHeaders }
const asMaster = { token: masterKey }

/** An organisation `acme` with a role, its permission record, a member, a subscription and audit entries. */
const acmeWithEverything = async (api: TestApi) => {
  expect(
    (await api.call("POST", "/api/v1/organizations", { ...asMaster, body: { name: "Acme", slug: "acme" } }))
      .status
  ).toBe(200)
  const role = await api.call("POST", "/api/v1/team/role/add", {
    ...inAcme,
    body: { name: "Staff", roleKey: "staff" }
  })
  const detail = await api.call("POST", "/api/v1/team/role-permission-detail", {
    ...inAcme,
    body: { roleId: role.body.id, permissionId: 1 }
  })
  const member = await api.call("POST", "/api/v1/team/add", {
    ...inAcme,
    body: { username: "wile", email: "wile@acme.example", password, activestatus: true, roleId: role.body.id }
  })
  const subscription = await api.call("POST", "/api/v1/pricing/subscribe", {
    ...inAcme,
    body: { planId: "free", planName: "Free", price: 0 }
  })
  const invitation = await api.call("POST", "/api/v1/team/invitations", {
    ...inAcme,
    body: { email: "coyote@acme.example", roleId: role.body.id }
  })
  for (const answer of [role, detail, member, subscription, invitation])
    expect(answer.status, answer.text).toBe(200)
  return {
    role: role.body,
    detail: detail.body,
    member: member.body,
    subscription: subscription.body,
    invitation: invitation.body
  }
}

/** Everything `acme` holds, as its own master-key reads show it. */
const acmeState = async (api: TestApi) => {
  const reads = await Promise.all(
    [
      "/api/v1/team/roles",
      "/api/v1/team/members",
      "/api/v1/pricing/subscription",
      "/api/v1/audit/events",
      "/api/v1/organization",
      "/api/v1/team/invitations"
    ].map((path) => api.call("GET", path, inAcme))
  )
  return reads.map((answer) => answer.text)
}

describe("isolation between organisations", () => {
  it("every endpoint given another organisation's ids answers 404 (or 422 for a named role) and changes nothing", async () => {
    const api = await startApi()
    const acme = await acmeWithEverything(api)
    const before = await acmeState(api)
    const ours = await api.call("POST", "/api/v1/team/role/add", {
      ...asMaster,
      body: { name: "Ours", roleKey: "staff" }
    })
    expect(ours.status, "a role key is unique within its organisation only").toBe(200)
    const memberId = encodeURIComponent(acme.member.id)
    const notFound: Array<[string, string, unknown?]> = [
      ["GET", `/api/v1/team/members/${memberId}`],
      ["PATCH", `/api/v1/team/members/${memberId}`, { activestatus: false }],
      ["DELETE", `/api/v1/team/members/${memberId}`],
      ["POST", `/api/v1/admin/members/${memberId}/password`, { newPassword: `${password}!` }],
      ["GET", `/api/v1/admin/members/${memberId}/mfa`],
      [
        "POST",
        "/api/v1/admin/toggle-account-status",
        { user_id: acme.member.id, accountActiveStatus: false }
      ],
      ["GET", `/api/v1/team/roles/${acme.role.id}`],
      ["PATCH", `/api/v1/team/roles/${acme.role.id}`, { name: "Taken" }],
      ["DELETE", `/api/v1/team/roles/${acme.role.id}`],
      ["GET", `/api/v1/team/role-permission-detail/${acme.detail.id}`],
      ["DELETE", `/api/v1/team/role-permission-detail/${acme.detail.id}`, { permissionId: 1 }],
      ["GET", "/api/v1/pricing/subscription"],
      ["DELETE", "/api/v1/pricing/subscription"],
      ["GET", `/api/v1/team/invitations/${acme.invitation.id}`],
      ["DELETE", `/api/v1/team/invitations/${acme.invitation.id}`]
    ]
    for (const [method, path, body] of notFound) {
      const answer = await api.call(method, path, { ...asMaster, ...(body === undefined ? {} : { body }) })
      expectProblem(answer, 404, "not_found")
    }
    const unknownRole: Array<[string, string, unknown]> = [
      [
        "POST",
        "/api/v1/team/add",
        { username: "bob", email: "bob@example.com", password, activestatus: true, roleId: acme.role.id }
      ],
      ["POST", "/api/v1/team/role-permission-detail", { roleId: acme.role.id, permissionId: 2 }],
      ["POST", "/api/v1/team/invitations", { email: "roadrunner@example.com", roleId: acme.role.id }]
    ]
    for (const [method, path, body] of unknownRole) {
      expectProblem(await api.call(method, path, { ...asMaster, body }), 422, "unknown_role")
    }
    const lists = await Promise.all(
      [
        `/api/v1/team/members?roleId=${acme.role.id}`,
        "/api/v1/team/members",
        "/api/v1/team/invitations",
        `/api/v1/audit/events?targetId=${memberId}`
      ].map((path) => api.call("GET", path, asMaster))
    )
    for (const list of lists) expect(list.body).toEqual([])
    const ourRoles = (await api.call("GET", "/api/v1/team/roles", asMaster)).body
    expect(ourRoles.map((role: { id: number }) => role.id)).toEqual([ours.body.id])
    expect(await acmeState(api)).toEqual(before)
  })

  it("a session of one organisation reaches nothing of another, and its keys are its own", async () => {
    const api = await startApi()
    const acme = await acmeWithEverything(api)
    const owner = (await api.call("GET", "/api/v1/team/roles", inAcme)).body.find(
      (role: { roleKey: string }) => role.roleKey === "owner"
    )
    await api.call("POST", "/api/v1/team/add", {
      ...inAcme,
      body: { username: "boss", email: "boss@acme.example", password, activestatus: true, roleId: owner.id }
    })
    const token = (await api.call("POST", "/api/v1/auth/login", { body: { username: "boss", password } }))
      .body.token as string
    const theirs = await api.call("POST", "/api/v1/team/role/add", {
      ...asMaster,
      body: { name: "Ours", roleKey: "ours" }
    })
    expectProblem(await api.call("GET", `/api/v1/team/roles/${theirs.body.id}`, { token }), 404, "not_found")
    expectProblem(
      await api.call("PATCH", `/api/v1/team/roles/${theirs.body.id}`, { token, body: { name: "Mine" } }),
      404,
      "not_found"
    )
    // One Idempotency-Key in two organisations: two requests, neither a replay of the other.
    const key = { "idempotency-key": "same-key" }
    const body = { name: "Keyed", roleKey: "keyed" }
    const inDefault = await api.call("POST", "/api/v1/team/role/add", { ...asMaster, headers: key, body })
    const inAcmeToo = await api.call("POST", "/api/v1/team/role/add", {
      token: masterKey,
      headers: { ...key, ...acmeHeaders },
      body
    })
    expect(inAcmeToo.headers.get("idempotent-replayed")).toBeNull()
    expect(inAcmeToo.body.id).not.toBe(inDefault.body.id)
    const acmeRoles = (await api.call("GET", "/api/v1/team/roles", { token })).body
    expect(acmeRoles.map((role: { roleKey: string }) => role.roleKey).sort()).toEqual([
      "keyed",
      "owner",
      "staff"
    ])
    expect(acme.member.id).toBeTruthy()
  })
})
