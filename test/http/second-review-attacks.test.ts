// What a second outside review did to organisations, invitations and SCIM, played again: each
// attack fails and changes nothing, on every store.
import { describe, expect, it } from "vitest"
import {
  everyPermission,
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"
import { expectScimError, scimFor, userBody } from "../support/scim.ts"

const inOrganization = (slug: string) => ({ token: masterKey, headers: { "roster-organization": slug } })

const createOrganization = async (api: TestApi, slug: string) => {
  const created = await api.call("POST", "/api/v1/organizations", {
    token: masterKey,
    body: { name: `The ${slug} company`, slug }
  })
  expect(created.status, created.text).toBe(200)
  return created.body as { id: string; ownerRoleId: number }
}

const addMember = async (
  api: TestApi,
  credentials: { token: string; headers?: Record<string, string> },
  username: string,
  roleId: number,
  email = `${username}@example.com`
) => {
  const added = await api.call("POST", "/api/v1/team/add", {
    ...credentials,
    body: { username, email, password, activestatus: true, roleId }
  })
  expect(added.status, added.text).toBe(200)
  return added.body as { id: string }
}

const logIn = async (api: TestApi, username: string, organization?: string) => {
  const login = await api.call("POST", "/api/v1/auth/login", {
    body: { username, password, ...(organization === undefined ? {} : { organization }) }
  })
  expect(login.status, login.text).toBe(200)
  return login.body.token as string
}

const roleWith = async (api: TestApi, slug: string, key: string, permissionIds: ReadonlyArray<number>) => {
  const role = await api.call("POST", "/api/v1/team/role/add", {
    ...inOrganization(slug),
    body: { name: key, roleKey: key }
  })
  expect(role.status, role.text).toBe(200)
  for (const permissionId of permissionIds) {
    const grant = await api.call("POST", "/api/v1/team/role-permission-detail", {
      ...inOrganization(slug),
      body: { roleId: role.body.id, permissionId }
    })
    expect(grant.status, grant.text).toBe(200)
  }
  return role.body.id as number
}

const memberIds = async (api: TestApi, slug: string) =>
  (await api.call("GET", "/api/v1/team/members", inOrganization(slug))).body.map(
    (member: { id: string }) => member.id
  )

describe("SCIM never links an account that exists", () => {
  it("a squatter's account named by the hire's e-mail or username is 409, naming nothing of it", async () => {
    const api = await startApi()
    await createOrganization(api, "evil")
    const squatterRole = await roleWith(api, "evil", "squatters", [1])
    const squatter = await addMember(api, inOrganization("evil"), "hire", squatterRole, "hire@victim.example")
    const scim = await scimFor(api)
    const before = await memberIds(api, "default")
    for (const body of [
      userBody("hire@victim.example"),
      userBody("hire", { emails: [{ value: "someone.else@victim.example", primary: true }] }),
      userBody("new.person@victim.example", { emails: [{ value: "HIRE@victim.example", primary: true }] })
    ]) {
      const refused = await scim.call("POST", "/Users", { body })
      expectScimError(refused, 409, "uniqueness")
      expect(refused.text).not.toContain(squatter.id)
      expect(refused.body.detail).not.toMatch(/hire/i)
    }
    expect(await memberIds(api, "default")).toEqual(before)
    const token = await logIn(api, "hire")
    const memberships = await api.call("GET", "/api/v1/auth/organizations", { token })
    expect(memberships.body.map((m: { organization: { slug: string } }) => m.organization.slug)).toEqual([
      "evil"
    ])
  })

  it("another organisation's token naming a member by username learns nothing of them", async () => {
    const api = await startApi()
    const reader = await roleWith(api, "default", "staff", [1])
    await addMember(api, { token: masterKey }, "victim", reader, "victim@private.example")
    await createOrganization(api, "evil")
    const foreign = await scimFor(api, "evil")
    const refused = await foreign.call("POST", "/Users", {
      body: userBody("victim", { emails: [{ value: "victim@evil.example", primary: true }] })
    })
    expectScimError(refused, 409, "uniqueness")
    expect(refused.text).not.toContain("private.example")
    expect(await memberIds(api, "evil")).toEqual([])
  })
})

describe("a SCIM token acts with its creator's permissions, less organization.write", () => {
  it("organization.write alone mints a token that reads the discovery endpoints and nothing more", async () => {
    const api = await startApi()
    const admin = await memberWithPermissions(api, "admin", [1, 2, 3, 4, 5, 6, 7, 8])
    const settings = await memberWithPermissions(api, "settings", [9])
    const created = await api.call("POST", "/api/v1/organization/scim-tokens", {
      token: settings.token,
      body: { name: "mine" }
    })
    expect(created.status, created.text).toBe(200)
    expect(created.body.permissionIds).toEqual([])
    const scim = (path: string, init: { method?: string; body?: unknown } = {}) =>
      api.call(init.method ?? "GET", `/scim/v2${path}`, {
        token: created.body.token,
        headers: { "content-type": "application/scim+json" },
        ...(init.body === undefined ? {} : { body: init.body })
      })
    expect((await scim("/ServiceProviderConfig")).status).toBe(200)
    expectScimError(await scim("/Users"), 403)
    expectScimError(
      await scim(`/Users/${admin.member.id}`, {
        method: "PUT",
        body: userBody("admin", {
          emails: [{ value: "admin@example.com", primary: true }],
          password: "taken-over-1"
        })
      }),
      403
    )
    expectScimError(await scim("/Users", { method: "POST", body: userBody("new@example.com") }), 403)
    expect(await logIn(api, "admin")).toEqual(expect.any(String))
    expectProblem(
      await api.call("POST", "/api/v1/auth/login", { body: { username: "admin", password: "taken-over-1" } }),
      401,
      "unauthorized"
    )
  })

  it("a token acts under the ceiling of what its creator held: never above it", async () => {
    const api = await startApi()
    const lead = await memberWithPermissions(api, "lead", [1, 2, 9])
    const admin = await memberWithPermissions(api, "admin", [1, 2, 3, 4, 5, 6, 7, 8])
    const created = await api.call("POST", "/api/v1/organization/scim-tokens", {
      token: lead.token,
      body: { name: "lead's" }
    })
    expect(created.body.permissionIds).toEqual([1, 2])
    const patched = await api.call("PATCH", `/scim/v2/Users/${admin.member.id}`, {
      token: created.body.token,
      headers: { "content-type": "application/scim+json" },
      body: {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
        Operations: [{ op: "replace", path: "active", value: false }]
      }
    })
    expectScimError(patched, 403)
    expect((await api.call("GET", "/api/v1/auth/me", { token: admin.token })).status).toBe(200)
  })
})

describe("deleting an organisation takes an owner", () => {
  it("organization.write alone is refused, and the organisation with its owners stays", async () => {
    const api = await startApi()
    const acme = await createOrganization(api, "acme")
    await addMember(api, inOrganization("acme"), "founder", acme.ownerRoleId)
    const settingsRole = await roleWith(api, "acme", "settings", [9])
    await addMember(api, inOrganization("acme"), "settings", settingsRole)
    const token = await logIn(api, "settings")
    expectProblem(await api.call("DELETE", "/api/v1/organization", { token }), 403, "forbidden")
    expect((await api.call("GET", "/api/v1/organization", inOrganization("acme"))).status).toBe(200)
    expect((await api.call("GET", "/api/v1/auth/me", { token: await logIn(api, "founder") })).status).toBe(
      200
    )
  })
})

describe("the Owner role is the one the organisation records by id", () => {
  it("is named on the organisation, and keeps every permission whatever its key becomes", async () => {
    const api = await startApi()
    const acme = await createOrganization(api, "acme")
    const read = await api.call("GET", "/api/v1/organization", inOrganization("acme"))
    expect(read.body.ownerRoleId).toBe(acme.ownerRoleId)
    const renamed = await api.call("PATCH", `/api/v1/team/roles/${acme.ownerRoleId}`, {
      ...inOrganization("acme"),
      body: { name: "Founders", roleKey: "founders" }
    })
    expect(renamed.status, renamed.text).toBe(200)
    const impostor = await roleWith(api, "acme", "owner", [1])
    const member = await addMember(api, inOrganization("acme"), "climber", impostor)
    const token = await logIn(api, "climber")
    const me = await api.call("GET", "/api/v1/auth/me", { token })
    expect(me.body.permissions).toEqual(["team.read"])
    expect(member.id).toEqual(expect.any(String))
  })
})

describe("an answer's secret is never kept for a replay", () => {
  it("a SCIM token made with an Idempotency-Key is replayed with null in its place", async () => {
    const api = await startApi()
    const call = () =>
      api.call("POST", "/api/v1/organization/scim-tokens", {
        token: masterKey,
        headers: { "idempotency-key": "scim-token-once" },
        body: { name: "Okta" }
      })
    const first = await call()
    expect(first.status, first.text).toBe(200)
    expect(first.body.token).toEqual(expect.any(String))
    const replay = await call()
    expect(replay.status).toBe(200)
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(replay.body).toEqual({ ...first.body, token: null })
    expect(replay.text).not.toContain(first.body.token)
    const listed = await api.call("GET", "/api/v1/organization/scim-tokens", { token: masterKey })
    expect(listed.body).toHaveLength(1)
  })

  it("so is an invitation's token, answered when the deployment sends no mail", async () => {
    const api = await startApi()
    const role = await roleWith(api, "default", "staff", [1])
    const call = () =>
      api.call("POST", "/api/v1/team/invitations", {
        token: masterKey,
        headers: { "idempotency-key": "invite-once" },
        body: { email: "grace@example.com", roleId: role }
      })
    const first = await call()
    expect(first.body.token).toEqual(expect.any(String))
    const replay = await call()
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(replay.body).toEqual({ ...first.body, token: null })
  })
})

describe("re-inviting is held to the ceiling of the invitation it replaces", () => {
  it("a member who may not revoke a pending invitation may not replace it with a lower one either", async () => {
    const api = await startApi()
    const admins = await roleWith(api, "default", "admins", everyPermission)
    const staff = await roleWith(api, "default", "staff", [1])
    const lead = await memberWithPermissions(api, "lead", [1, 2])
    const invited = await api.call("POST", "/api/v1/team/invitations", {
      token: masterKey,
      body: { email: "boss@example.com", roleId: admins }
    })
    expect(invited.status, invited.text).toBe(200)
    expectProblem(
      await api.call("DELETE", `/api/v1/team/invitations/${invited.body.id}`, { token: lead.token }),
      403,
      "forbidden"
    )
    expectProblem(
      await api.call("POST", "/api/v1/team/invitations", {
        token: lead.token,
        body: { email: "BOSS@example.com", roleId: staff }
      }),
      403,
      "forbidden"
    )
    const pending = await api.call("GET", "/api/v1/team/invitations?status=pending", { token: masterKey })
    expect(pending.body.map((i: { id: string; roleId: number }) => [i.id, i.roleId])).toEqual([
      [invited.body.id, admins]
    ])
    const accepted = await api.call("POST", "/api/v1/invitations/accept", {
      body: { token: invited.body.token, username: "boss", password }
    })
    expect(accepted.status, accepted.text).toBe(200)
  })
})

describe("deactivating a role ends its holders' sessions", () => {
  it("they stay ended once the role is active again; a new sign-in works", async () => {
    const api = await startApi()
    const { role, token } = await memberWithPermissions(api, "ada", [1])
    const setActive = async (activeStatus: boolean) => {
      const changed = await api.call("PATCH", `/api/v1/team/roles/${role.id}`, {
        token: masterKey,
        body: { activeStatus }
      })
      expect(changed.status, changed.text).toBe(200)
    }
    expect((await api.call("GET", "/api/v1/auth/me", { token })).status).toBe(200)
    await setActive(false)
    expectProblem(await api.call("GET", "/api/v1/auth/me", { token }), 401, "unauthorized")
    await setActive(true)
    expectProblem(await api.call("GET", "/api/v1/auth/me", { token }), 401, "unauthorized")
    const again = await logIn(api, "ada")
    expect((await api.call("GET", "/api/v1/auth/me", { token: again })).status).toBe(200)
  })

  it("a rename leaves them be", async () => {
    const api = await startApi()
    const { role, token } = await memberWithPermissions(api, "ada", [1])
    const renamed = await api.call("PATCH", `/api/v1/team/roles/${role.id}`, {
      token: masterKey,
      body: { name: "Readers" }
    })
    expect(renamed.status).toBe(200)
    expect((await api.call("GET", "/api/v1/auth/me", { token })).status).toBe(200)
  })
})

describe("accepting into an account that exists", () => {
  it("says it needs that account's password, not a new account's fields", async () => {
    const api = await startApi()
    const staff = await roleWith(api, "default", "staff", [1])
    await createOrganization(api, "acme")
    const acmeRole = await roleWith(api, "acme", "acme-staff", [1])
    await addMember(api, inOrganization("acme"), "grace", acmeRole, "grace@example.com")
    const invited = await api.call("POST", "/api/v1/team/invitations", {
      token: masterKey,
      body: { email: "grace@example.com", roleId: staff }
    })
    const refused = expectProblem(
      await api.call("POST", "/api/v1/invitations/accept", { body: { token: invited.body.token } }),
      400,
      "validation_failed"
    )
    expect(refused.errors).toEqual([{ path: "body.password", message: expect.stringMatching(/exists/) }])
    expect(refused.detail).not.toMatch(/new account/)
  })
})
