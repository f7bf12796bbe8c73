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
import { createUser, expectScimError, groupSchema, patchOf, scimFor, userBody } from "../support/scim.ts"

const inAcme = { token: masterKey, headers: { "roster-organization": "acme" } }

const acme = async (api: TestApi) => {
  const created = await api.call("POST", "/api/v1/organizations", {
    token: masterKey,
    body: { name: "Acme", slug: "acme" }
  })
  expect(created.status, created.text).toBe(200)
  const roles = await api.call("GET", "/api/v1/team/roles", inAcme)
  return { ownerRoleId: roles.body[0].id as number }
}

describe("SCIM tokens", () => {
  it("need organization.write; are shown once, listed without the token, audited, and refused once revoked", async () => {
    const api = await startApi()
    const everythingElse = await memberWithPermissions(api, "almost", [1, 2, 3, 4, 5, 6, 7, 8])
    expectProblem(
      await api.call("POST", "/api/v1/organization/scim-tokens", {
        token: everythingElse.token,
        body: { name: "x" }
      }),
      403,
      "forbidden"
    )
    expectProblem(
      await api.call("GET", "/api/v1/organization/scim-tokens", { token: everythingElse.token }),
      403,
      "forbidden"
    )
    const scim = await scimFor(api)
    const listed = await api.call("GET", "/api/v1/organization/scim-tokens", { token: masterKey })
    expect(listed.body).toEqual([
      {
        id: scim.tokenId,
        name: "IdP",
        permissionIds: everyPermission.filter((id) => id !== 9),
        createdAt: expect.any(String)
      }
    ])
    expect(listed.text).not.toContain(scim.token)
    expect(scim.token).toMatch(/^rsc_/)
    expect((await scim.call("GET", "/Users")).status).toBe(200)
    const revoked = await api.call("DELETE", `/api/v1/organization/scim-tokens/${scim.tokenId}`, {
      token: masterKey
    })
    expect(revoked.status, revoked.text).toBe(200)
    expectScimError(await scim.call("GET", "/Users"), 401)
    expectProblem(
      await api.call("DELETE", `/api/v1/organization/scim-tokens/${scim.tokenId}`, { token: masterKey }),
      404,
      "not_found"
    )
    const audit = await api.call("GET", "/api/v1/audit/events", { token: masterKey })
    const ofToken = audit.body.filter((e: { target: { type: string } }) => e.target.type === "scim_token")
    expect(ofToken.map((e: { action: string }) => e.action)).toEqual([
      "scim_token.revoked",
      "scim_token.created"
    ])
    expect(audit.text).not.toContain(scim.token)
  })

  it("a SCIM token serves /scim/v2 only, and only a SCIM token does", async () => {
    const api = await startApi()
    const scim = await scimFor(api)
    expect((await api.call("GET", "/api/v1/team/members", { token: scim.token })).status).toBe(401)
    const member = await memberWithPermissions(api, "admin", everyPermission)
    for (const token of [masterKey, member.token, "not-a-token"]) {
      const refused = await api.call("GET", "/scim/v2/Users", { token })
      expectScimError(refused, 401)
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/)
    }
    expectScimError(await api.call("GET", "/scim/v2/Users"), 401)
  })

  it("a cross-site browser request to /scim/v2 is refused and creates nothing", async () => {
    const api = await startApi()
    const scim = await scimFor(api)
    const refused = await scim.call("POST", "/Users", {
      body: userBody("csrf@example.com"),
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" }
    })
    expect(refused.status).toBe(403)
    expect((await scim.call("GET", "/Users")).body.totalResults).toBe(0)
  })
})

describe("what a SCIM token may touch", () => {
  it("another organisation's members and roles are not there for it: not found, unchanged", async () => {
    const api = await startApi()
    await acme(api)
    const ours = await scimFor(api)
    const theirs = await scimFor(api, "acme")
    const their = await createUser(theirs, "their@example.com")
    expect((await ours.call("GET", "/Users")).body.totalResults).toBe(0)
    expectScimError(await ours.call("GET", `/Users/${their.id}`), 404)
    expectScimError(
      await ours.call("PATCH", `/Users/${their.id}`, {
        body: patchOf({ op: "replace", path: "active", value: false })
      }),
      404
    )
    expectScimError(await ours.call("DELETE", `/Users/${their.id}`), 404)
    expectScimError(await ours.call("GET", `/Groups/${theirs.readerRoleId}`), 404)
    const group = await ours.call("POST", "/Groups", {
      body: { schemas: [groupSchema], displayName: "Mine", members: [{ value: their.id }] }
    })
    expect(group.body.members).toBeUndefined()
    expect((await theirs.call("GET", `/Users/${their.id}`)).body).toMatchObject({
      active: true,
      groups: [{ value: String(theirs.readerRoleId) }]
    })
  })

  it("never the owners' role nor its holders; the team keeps its owner", async () => {
    const api = await startApi()
    const { ownerRoleId } = await acme(api)
    const scim = await scimFor(api, "acme")
    const owner = await api.call("POST", "/api/v1/team/add", {
      ...inAcme,
      body: {
        username: "owner",
        email: "owner@example.com",
        password,
        activestatus: true,
        roleId: ownerRoleId
      }
    })
    expect(owner.status, owner.text).toBe(200)
    expectScimError(
      await scim.call("PATCH", `/Users/${owner.body.id}`, {
        body: patchOf({ op: "replace", path: "active", value: false })
      }),
      403
    )
    expectScimError(await scim.call("DELETE", `/Users/${owner.body.id}`), 403)
    const user = await createUser(scim, "climber@example.com")
    expectScimError(
      await scim.call("PATCH", `/Groups/${ownerRoleId}`, {
        body: patchOf({ op: "add", path: "members", value: [{ value: user.id }] })
      }),
      403
    )
    expectScimError(await scim.call("DELETE", `/Groups/${ownerRoleId}`), 403)
    const group = await scim.call("POST", "/Groups", {
      body: { schemas: [groupSchema], displayName: "Mixed" }
    })
    expectScimError(
      await scim.call("PATCH", `/Groups/${group.body.id}`, {
        body: patchOf({ op: "add", path: "members", value: [{ value: user.id }, { value: owner.body.id }] })
      }),
      403
    )
    expect((await api.call("GET", `/api/v1/team/members/${user.id}`, inAcme)).body.roleId).toBe(
      scim.readerRoleId
    )
    const still = await api.call("GET", `/api/v1/team/members/${owner.body.id}`, inAcme)
    expect(still.body).toMatchObject({ activestatus: true, roleId: ownerRoleId })
    expect((await api.call("GET", `/api/v1/team/members/${user.id}`, inAcme)).body.roleId).not.toBe(
      ownerRoleId
    )
  })

  it("a person who is also a member elsewhere keeps their password, username and e-mail: 403, nothing changed", async () => {
    const api = await startApi()
    await acme(api)
    const scim = await scimFor(api, "acme")
    const staff = await api.call("POST", "/api/v1/team/role/add", {
      token: masterKey,
      body: { name: "Staff", roleKey: "staff" }
    })
    const linked = await createUser(scim, "shared@example.com", { password })
    const invited = await api.call("POST", "/api/v1/team/invitations", {
      token: masterKey,
      body: { email: "shared@example.com", roleId: staff.body.id }
    })
    const joined = await api.call("POST", "/api/v1/invitations/accept", {
      body: { token: invited.body.token, password }
    })
    expect(joined.status, joined.text).toBe(200)
    for (const operation of [
      { op: "add", path: "password", value: "another long passphrase" },
      { op: "replace", path: "userName", value: "renamed" },
      { op: "replace", path: "emails", value: [{ value: "other@example.com", primary: true }] }
    ]) {
      expectScimError(
        await scim.call("PATCH", `/Users/${linked.id}`, {
          body: patchOf({ op: "replace", path: "displayName", value: "Changed" }, operation)
        }),
        403
      )
    }
    const after = await scim.call("GET", `/Users/${linked.id}`)
    expect(after.body.displayName).toBeUndefined()
    expect(after.body.emails[0].value).toBe("shared@example.com")
    const login = await api.call("POST", "/api/v1/auth/login", {
      body: { username: linked.userName, password, organization: "default" }
    })
    expect(login.status, login.text).toBe(200)
    const deactivated = await scim.call("PATCH", `/Users/${linked.id}`, {
      body: patchOf({ op: "replace", path: "active", value: false })
    })
    expect(deactivated.status, deactivated.text).toBe(200)
    expect((await api.call("GET", "/api/v1/auth/me", { token: login.body.token })).status).toBe(200)
  })

  it("deleting the organisation revokes its tokens", async () => {
    const api = await startApi()
    await acme(api)
    const scim = await scimFor(api, "acme")
    expect((await api.call("DELETE", "/api/v1/organization", inAcme)).status).toBe(200)
    expectScimError(await scim.call("GET", "/Users"), 401)
  })
})
