import { describe, expect, it } from "vitest"
import { addRole, expectProblem, masterKey, password, startApi } from "../support/http.ts"
import { createUser, expectScimError, patchOf, scimFor, userBody } from "../support/scim.ts"

const asMaster = { token: masterKey }

describe("SCIM Users", () => {
  it("provisions a member in the default role, answers it as SCIM, and the person signs in with the password", async () => {
    const api = await startApi()
    const scim = await scimFor(api)
    const created = await scim.call("POST", "/Users", {
      body: userBody("Ada.Lovelace@Example.com", { externalId: "okta-1", displayName: "Ada", password })
    })
    expect(created.status, created.text).toBe(201)
    expect(created.headers.get("content-type")).toMatch(/^application\/scim\+json/)
    expect(created.headers.get("location")).toBe(created.body.meta.location)
    expect(created.headers.get("etag")).toBe(created.body.meta.version)
    expect(created.body).toMatchObject({
      userName: "Ada.Lovelace@Example.com",
      externalId: "okta-1",
      displayName: "Ada",
      name: { givenName: "Given", familyName: "Family" },
      emails: [{ value: "ada.lovelace@example.com", type: "work", primary: true }],
      active: true,
      groups: [{ value: String(scim.readerRoleId), display: "Reader" }],
      meta: { resourceType: "User" }
    })
    expect(created.text).not.toContain(password)
    const member = await api.call("GET", `/api/v1/team/members/${created.body.id}`, asMaster)
    expect(member.body).toMatchObject({ username: "Ada.Lovelace.Example.com", roleId: scim.readerRoleId })
    const login = await api.call("POST", "/api/v1/auth/login", {
      body: { username: "ada.lovelace@example.com", password }
    })
    expect(login.status, login.text).toBe(200)
    const audit = await api.call("GET", "/api/v1/audit/events?action=member.added", asMaster)
    expect(audit.body[0].actor).toEqual({ kind: "scim", id: scim.tokenId })
  })

  it("refuses a second user with the same userName (ignoring case) or a member's e-mail: 409 uniqueness", async () => {
    const api = await startApi()
    const scim = await scimFor(api)
    await createUser(scim, "grace@example.com")
    expectScimError(
      await scim.call("POST", "/Users", { body: userBody("GRACE@example.com") }),
      409,
      "uniqueness"
    )
    expectScimError(
      await scim.call("POST", "/Users", {
        body: { ...userBody("grace2"), emails: [{ value: "grace@example.com" }] }
      }),
      409,
      "uniqueness"
    )
  })

  it("refuses a person another organisation's account is already: they join through an invitation", async () => {
    const api = await startApi()
    await api.call("POST", "/api/v1/organizations", { ...asMaster, body: { name: "Acme", slug: "acme" } })
    const scim = await scimFor(api, "acme")
    const staff = await addRole(api, "staff", asMaster)
    const before = await api.call("POST", "/api/v1/team/add", {
      ...asMaster,
      body: {
        username: "linus",
        email: "linus@example.com",
        password,
        activestatus: true,
        roleId: staff.body.id
      }
    })
    expect(before.status, before.text).toBe(200)
    expectScimError(
      await scim.call("POST", "/Users", { body: userBody("linus@example.com") }),
      409,
      "uniqueness"
    )
    const inAcme = { token: masterKey, headers: { "roster-organization": "acme" } }
    expectProblem(await api.call("GET", `/api/v1/team/members/${before.body.id}`, inAcme), 404, "not_found")
    const invited = await api.call("POST", "/api/v1/team/invitations", {
      ...inAcme,
      body: { email: "linus@example.com", roleId: scim.readerRoleId }
    })
    const accepted = await api.call("POST", "/api/v1/invitations/accept", {
      body: { token: invited.body.token, password }
    })
    expect(accepted.status, accepted.text).toBe(200)
    expect((await scim.call("GET", `/Users/${before.body.id}`)).body.userName).toBe("linus")
  })

  it("answers 400 invalidValue for a user without userName, and 400 invalidSyntax without its schema", async () => {
    const api = await startApi()
    const scim = await scimFor(api)
    const { userName: _, ...nameless } = userBody("x@example.com")
    expectScimError(await scim.call("POST", "/Users", { body: nameless }), 400, "invalidValue")
    expectScimError(
      await scim.call("POST", "/Users", { body: { ...userBody("y@example.com"), schemas: [] } }),
      400,
      "invalidSyntax"
    )
    expectScimError(await scim.call("POST", "/Users", { body: { not: "a scim resource" } }), 400)
    const none = await api.call("GET", "/api/v1/team/members", asMaster)
    expect(none.body.map((m: { email: string }) => m.email)).not.toContain("y@example.com")
  })

  it("deactivating (Okta's replace without path) ends the member's sessions at once; reactivating lets them in again", async () => {
    const api = await startApi()
    const scim = await scimFor(api)
    const user = await createUser(scim, "okta@example.com", { password })
    const session = await api.call("POST", "/api/v1/auth/login", {
      body: { username: "okta@example.com", password }
    })
    expect((await api.call("GET", "/api/v1/auth/me", { token: session.body.token })).status).toBe(200)
    const off = await scim.call("PATCH", `/Users/${user.id}`, {
      body: patchOf({ op: "replace", value: { id: user.id, active: false } })
    })
    expect(off.status, off.text).toBe(200)
    expect(off.body.active).toBe(false)
    expect((await api.call("GET", "/api/v1/auth/me", { token: session.body.token })).status).toBe(401)
    const member = await api.call("GET", `/api/v1/team/members/${user.id}`, asMaster)
    expect(member.body.activestatus).toBe(false)
    const on = await scim.call("PUT", `/Users/${user.id}`, {
      body: { ...userBody("okta@example.com"), active: true }
    })
    expect(on.body.active).toBe(true)
  })

  it('takes the forms Entra sends: capitalised op, "False" strings, paths into name and typed e-mails', async () => {
    const api = await startApi()
    const scim = await scimFor(api)
    const user = await createUser(scim, "entra@example.com")
    const changed = await scim.call("PATCH", `/Users/${user.id}`, {
      body: patchOf(
        { op: "Replace", path: "active", value: "False" },
        { op: "Replace", path: "name.givenName", value: "Grace" },
        { op: "Add", path: "externalId", value: "entra-object-id" },
        { op: "Replace", path: 'emails[type eq "work"].value', value: "Grace.H@Example.com" },
        { op: "Add", path: "displayName", value: "Grace H" }
      )
    })
    expect(changed.status, changed.text).toBe(200)
    expect(changed.body).toMatchObject({
      active: false,
      name: { givenName: "Grace", familyName: "Family" },
      externalId: "entra-object-id",
      displayName: "Grace H",
      emails: [{ value: "grace.h@example.com", type: "work", primary: true }]
    })
    const removed = await scim.call("PATCH", `/Users/${user.id}`, {
      body: patchOf({ op: "Remove", path: "displayName" }, { op: "replace", path: "active", value: "True" })
    })
    expect(removed.body.displayName).toBeUndefined()
    expect(removed.body.active).toBe(true)
  })

  it("changes only what If-Match names: a stale version is 412 and changes nothing", async () => {
    const api = await startApi()
    const scim = await scimFor(api)
    const user = await createUser(scim, "etag@example.com")
    const stale = user.meta.version as string
    const first = await scim.call("PATCH", `/Users/${user.id}`, {
      body: patchOf({ op: "replace", path: "displayName", value: "One" }),
      headers: { "if-match": stale }
    })
    expect(first.status, first.text).toBe(200)
    expect(first.body.meta.version).not.toBe(stale)
    expectScimError(
      await scim.call("PUT", `/Users/${user.id}`, {
        body: userBody("etag@example.com", { displayName: "Two" }),
        headers: { "if-match": stale }
      }),
      412
    )
    expectScimError(await scim.call("DELETE", `/Users/${user.id}`, { headers: { "if-match": stale } }), 412)
    const now = await scim.call("GET", `/Users/${user.id}`)
    expect(now.body.displayName).toBe("One")
    expect(now.headers.get("etag")).toBe(first.body.meta.version)
  })

  it("deletes a member: gone from SCIM and from the team, and the userName free again", async () => {
    const api = await startApi()
    const scim = await scimFor(api)
    const user = await createUser(scim, "leaver@example.com")
    const deleted = await scim.call("DELETE", `/Users/${user.id}`)
    expect(deleted.status).toBe(204)
    expectScimError(await scim.call("GET", `/Users/${user.id}`), 404)
    expect((await api.call("GET", `/api/v1/team/members/${user.id}`, asMaster)).status).toBe(404)
    await createUser(scim, "leaver@example.com")
  })
})
