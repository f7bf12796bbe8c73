import { describe, expect, it } from "vitest"
import {
  addRole,
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"

const asMaster = { token: masterKey }
const inAcme = { token: masterKey, headers: { "roster-organization": "acme" } }

const invite = (api: TestApi, email: string, roleId: number, credentials: object = asMaster) =>
  api.call("POST", "/api/v1/team/invitations", { ...credentials, body: { email, roleId } })

const accept = (api: TestApi, body: Record<string, unknown>, token?: string) =>
  api.call("POST", "/api/v1/invitations/accept", { body, ...(token === undefined ? {} : { token }) })

const statusesOf = async (api: TestApi, credentials: object = asMaster, query = "") =>
  (await api.call("GET", `/api/v1/team/invitations${query}`, credentials)).body.map(
    (invitation: { email: string; status: string }) => `${invitation.email}:${invitation.status}`
  )

describe("invitations", () => {
  it("a new person accepts once, becomes a member in the role and is signed in; the token is worth nothing after", async () => {
    const api = await startApi()
    const staff = (await addRole(api, "staff", asMaster)).body
    const created = await invite(api, "Grace@Example.com", staff.id)
    expect(created.status, created.text).toBe(200)
    expect(created.body).toMatchObject({ email: "grace@example.com", roleId: staff.id, status: "pending" })
    expect(Object.keys(created.body).sort()).toEqual([
      "createdAt",
      "email",
      "expiresAt",
      "id",
      "roleId",
      "status",
      "token"
    ])
    const token = created.body.token as string
    expect(token.length).toBeGreaterThanOrEqual(43)
    expect(token).toMatch(/^rsi_/)
    expect(await statusesOf(api)).toEqual(["grace@example.com:pending"])
    const listed = await api.call("GET", "/api/v1/team/invitations", asMaster)
    expect(JSON.stringify(listed.body)).not.toContain(token)

    const signedIn = await accept(api, { token, username: "grace", password })
    expect(signedIn.status, signedIn.text).toBe(200)
    expect(signedIn.body.member).toMatchObject({ username: "grace", roleId: staff.id, activestatus: true })
    expect(signedIn.body.organization.slug).toBe("default")
    const me = await api.call("GET", "/api/v1/auth/me", { token: signedIn.body.token })
    expect(me.body.member.username).toBe("grace")
    expect(await statusesOf(api)).toEqual(["grace@example.com:accepted"])
    expect(await statusesOf(api, asMaster, "?status=pending")).toEqual([])

    expectProblem(await accept(api, { token, username: "grace2", password }), 410, "invitation_invalid")
    expectProblem(
      await accept(api, { token: "rsi_unknown", username: "x-y-z", password }),
      410,
      "invitation_invalid"
    )
    const actions = (await api.call("GET", "/api/v1/audit/events?limit=10", asMaster)).body.map(
      (entry: { action: string }) => entry.action
    )
    expect(actions.slice(0, 3)).toEqual(["invitation.accepted", "member.added", "invitation.created"])
  })

  it("a new account needs a username and a password; one taken is 409, and the invitation stays usable", async () => {
    const api = await startApi()
    const staff = (await addRole(api, "staff", asMaster)).body
    await memberWithPermissions(api, "ada", [1])
    const { token } = (await invite(api, "grace@example.com", staff.id)).body
    expectProblem(await accept(api, { token, password }), 400, "validation_failed")
    expectProblem(await accept(api, { token, username: "grace" }), 400, "validation_failed")
    expectProblem(await accept(api, { token, username: "ADA", password }), 409, "duplicate_username")
    expect(await statusesOf(api)).toEqual(["grace@example.com:pending"])
    expect((await accept(api, { token, username: "grace", password })).status).toBe(200)
  })

  it("re-inviting replaces the pending invitation; a revoked or expired one is 410", async () => {
    const api = await startApi({ invitationTtl: "150 millis" })
    const staff = (await addRole(api, "staff", asMaster)).body
    const first = (await invite(api, "grace@example.com", staff.id)).body
    const second = (await invite(api, "grace@example.com", staff.id)).body
    expect(second.id).not.toBe(first.id)
    expect(await statusesOf(api)).toEqual(["grace@example.com:pending"])
    expectProblem(
      await accept(api, { token: first.token, username: "grace", password }),
      410,
      "invitation_invalid"
    )

    const revoked = await api.call("DELETE", `/api/v1/team/invitations/${second.id}`, asMaster)
    expect(revoked.body.status).toBe("revoked")
    expect((await api.call("DELETE", `/api/v1/team/invitations/${second.id}`, asMaster)).body.status).toBe(
      "revoked"
    )
    expectProblem(
      await accept(api, { token: second.token, username: "grace", password }),
      410,
      "invitation_invalid"
    )

    const third = (await invite(api, "hopper@example.com", staff.id)).body
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await statusesOf(api, asMaster, "?status=expired")).toEqual(["hopper@example.com:expired"])
    expectProblem(
      await accept(api, { token: third.token, username: "hopper", password }),
      410,
      "invitation_invalid"
    )
    expect(await statusesOf(api, asMaster, "?status=revoked")).toEqual(["grace@example.com:revoked"])
  })

  it("an existing account joins another organisation with its password or its own session, never another's", async () => {
    const api = await startApi()
    expect(
      (await api.call("POST", "/api/v1/organizations", { ...asMaster, body: { name: "Acme", slug: "acme" } }))
        .status
    ).toBe(200)
    const owner = (await api.call("GET", "/api/v1/team/roles", inAcme)).body[0]
    const ada = await memberWithPermissions(api, "ada", [1])
    const bob = await memberWithPermissions(api, "bob", [1])

    const first = (await invite(api, "ada@example.com", owner.id, inAcme)).body
    expectProblem(
      await accept(api, { token: first.token, password: "not her password" }),
      401,
      "unauthorized"
    )
    expectProblem(await accept(api, { token: first.token }, bob.token), 403, "forbidden")
    const joined = await accept(api, { token: first.token }, ada.token)
    expect(joined.status, joined.text).toBe(200)
    expect(joined.body.organization.slug).toBe("acme")
    expect(joined.body.member.id).toBe(ada.member.id)

    const memberships = await api.call("GET", "/api/v1/auth/organizations", { token: joined.body.token })
    expect(memberships.body.map((m: { organization: { slug: string } }) => m.organization.slug)).toEqual([
      "default",
      "acme"
    ])
    const byDefault = await api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password } })
    expect(byDefault.body.organization.slug).toBe("default")
    const intoAcme = await api.call("POST", "/api/v1/auth/login", {
      body: { username: "ada", password, organization: "acme" }
    })
    expect(intoAcme.body.organization.slug).toBe("acme")
    expect(intoAcme.body.member.roleId).toBe(owner.id)

    expectProblem(await invite(api, "ada@example.com", owner.id, inAcme), 409, "already_member")
    const second = (await invite(api, "bob@example.com", owner.id, inAcme)).body
    const withPassword = await accept(api, { token: second.token, password })
    expect(withPassword.status, withPassword.text).toBe(200)
  })

  it("a shared account is the operator's to change; an organisation changes only its membership", async () => {
    const api = await startApi()
    await api.call("POST", "/api/v1/organizations", { ...asMaster, body: { name: "Acme", slug: "acme" } })
    const crew = (await addRole(api, "crew", inAcme)).body
    const admin = await memberWithPermissions(api, "admin", [1, 2, 7])
    const ada = await memberWithPermissions(api, "ada", [1])
    const { token } = (await invite(api, "ada@example.com", crew.id, inAcme)).body
    const inAcmeSession = (await accept(api, { token, password })).body.token as string
    const id = ada.member.id
    const byAdmin = { token: admin.token }

    expectProblem(
      await api.call("POST", "/api/v1/admin/toggle-account-status", {
        ...byAdmin,
        body: { user_id: id, accountActiveStatus: false }
      }),
      403,
      "account_shared"
    )
    expectProblem(
      await api.call("POST", `/api/v1/admin/members/${id}/password`, {
        ...byAdmin,
        body: { newPassword: "another long passphrase" }
      }),
      403,
      "account_shared"
    )
    expectProblem(
      await api.call("PATCH", `/api/v1/team/members/${id}`, { ...byAdmin, body: { username: "lovelace" } }),
      403,
      "account_shared"
    )
    expect((await api.call("GET", "/api/v1/auth/me", { token: ada.token })).status, "nothing changed").toBe(
      200
    )

    // The membership is the organisation's: deactivating it ends the sessions here only.
    const deactivated = await api.call("PATCH", `/api/v1/team/members/${id}`, {
      ...byAdmin,
      body: { activestatus: false }
    })
    expect(deactivated.status, deactivated.text).toBe(200)
    expect((await api.call("GET", "/api/v1/auth/me", { token: ada.token })).status).toBe(401)
    expect((await api.call("GET", "/api/v1/auth/me", { token: inAcmeSession })).status).toBe(200)

    // The operator disables the account: every session of it ends, in every organisation.
    const disabled = await api.call("POST", "/api/v1/admin/toggle-account-status", {
      ...asMaster,
      body: { user_id: id, accountActiveStatus: false }
    })
    expect(disabled.status, disabled.text).toBe(200)
    expect((await api.call("GET", "/api/v1/auth/me", { token: inAcmeSession })).status).toBe(401)
    await api.call("POST", "/api/v1/admin/toggle-account-status", {
      ...asMaster,
      body: { user_id: id, accountActiveStatus: true }
    })

    // Removed here, the account stays for its other membership; removed there too, it is gone.
    expect((await api.call("DELETE", `/api/v1/team/members/${id}`, byAdmin)).status).toBe(200)
    const stillThere = await api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password } })
    expect(stillThere.body.organization?.slug, stillThere.text).toBe("acme")
    expect((await api.call("DELETE", `/api/v1/team/members/${id}`, inAcme)).status).toBe(200)
    expectProblem(
      await api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password } }),
      401,
      "unauthorized"
    )
    const again = await api.call("POST", "/api/v1/team/add", {
      ...asMaster,
      body: { username: "ada", email: "ada@example.com", password, activestatus: true, roleId: admin.role.id }
    })
    expect(again.status, `the name and e-mail are free again: ${again.text}`).toBe(200)
  })

  it("who may invite: team.members.write within the ceiling; reads need team.read; other organisations' ids are 404", async () => {
    const api = await startApi()
    const full = (await addRole(api, "full", asMaster)).body
    for (const permissionId of [1, 2, 3]) {
      await api.call("POST", "/api/v1/team/role-permission-detail", {
        ...asMaster,
        body: { roleId: full.id, permissionId }
      })
    }
    const staff = (await addRole(api, "staff", asMaster)).body
    const reader = await memberWithPermissions(api, "reader", [1])
    const inviter = await memberWithPermissions(api, "inviter", [1, 2])
    expectProblem(await invite(api, "x@example.com", staff.id, { token: reader.token }), 403, "forbidden")
    expectProblem(await invite(api, "x@example.com", full.id, { token: inviter.token }), 403, "forbidden")
    expectProblem(await invite(api, "x@example.com", 999_999, { token: inviter.token }), 422, "unknown_role")
    const made = await invite(api, "x@example.com", staff.id, { token: inviter.token })
    expect(made.status, made.text).toBe(200)
    expect((await api.call("GET", "/api/v1/team/invitations", { token: reader.token })).body).toHaveLength(1)
    expectProblem(
      await api.call("DELETE", `/api/v1/team/invitations/${made.body.id}`, { token: reader.token }),
      403,
      "forbidden"
    )
    await api.call("POST", "/api/v1/organizations", { ...asMaster, body: { name: "Acme", slug: "acme" } })
    expectProblem(await api.call("GET", `/api/v1/team/invitations/${made.body.id}`, inAcme), 404, "not_found")
    expectProblem(
      await api.call("DELETE", `/api/v1/team/invitations/${made.body.id}`, inAcme),
      404,
      "not_found"
    )
    expect(await statusesOf(api, inAcme)).toEqual([])
    expect(await statusesOf(api)).toEqual(["x@example.com:pending"])
  })

  it("login without an organisation picks the oldest active membership; naming one the account lacks is 401", async () => {
    const api = await startApi()
    await api.call("POST", "/api/v1/organizations", { ...asMaster, body: { name: "Acme", slug: "acme" } })
    const crew = (await addRole(api, "crew", inAcme)).body
    const ada = await memberWithPermissions(api, "ada", [1])
    const { token } = (await invite(api, "ada@example.com", crew.id, inAcme)).body
    expect((await accept(api, { token, password })).status).toBe(200)
    const login = (organization?: string) =>
      api.call("POST", "/api/v1/auth/login", {
        body: { username: "ada", password, ...(organization === undefined ? {} : { organization }) }
      })
    expect((await login()).body.organization.slug).toBe("default")
    await api.call("PATCH", `/api/v1/team/members/${ada.member.id}`, {
      ...asMaster,
      body: { activestatus: false }
    })
    expect((await login()).body.organization.slug, "the inactive membership is skipped").toBe("acme")
    expectProblem(await login("default"), 403, "forbidden")
    await api.call("POST", "/api/v1/organizations", { ...asMaster, body: { name: "Other", slug: "other" } })
    expectProblem(await login("other"), 401, "unauthorized")
    expectProblem(await login("nowhere"), 401, "unauthorized")
  })
})
