import { describe, expect, it } from "vitest"
import { masterKey, startApi } from "../support/http.ts"
import { createUser, expectScimError, groupSchema, patchOf, scimFor } from "../support/scim.ts"

const asMaster = { token: masterKey }

const roleOf = async (api: Awaited<ReturnType<typeof startApi>>, memberId: string) =>
  (await api.call("GET", `/api/v1/team/members/${memberId}`, asMaster)).body.roleId as number

describe("SCIM Groups", () => {
  it("a group is a role: creating one with members moves them into it, and lists them", async () => {
    const api = await startApi()
    const scim = await scimFor(api)
    const ada = await createUser(scim, "ada@example.com")
    const created = await scim.call("POST", "/Groups", {
      body: {
        schemas: [groupSchema],
        displayName: "Sales (EMEA)",
        externalId: "g-1",
        members: [{ value: ada.id }]
      }
    })
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({
      displayName: "Sales (EMEA)",
      externalId: "g-1",
      members: [{ value: ada.id }]
    })
    const role = await api.call("GET", `/api/v1/team/roles/${created.body.id}`, asMaster)
    expect(role.body).toMatchObject({ name: "Sales (EMEA)", roleKey: "sales-emea" })
    expect(await roleOf(api, ada.id)).toBe(Number(created.body.id))
    const user = await scim.call("GET", `/Users/${ada.id}`)
    expect(user.body.groups).toEqual([
      expect.objectContaining({ value: created.body.id, display: "Sales (EMEA)" })
    ])
    const again = await scim.call("POST", "/Groups", {
      body: { schemas: [groupSchema], displayName: "Sales EMEA" }
    })
    const second = await api.call("GET", `/api/v1/team/roles/${again.body.id}`, asMaster)
    expect(second.body.roleKey).toBe("sales-emea-2")
  })

  it("Entra's member forms: add by value, remove by value filter; a removed member goes to the default role", async () => {
    const api = await startApi()
    const scim = await scimFor(api)
    const ada = await createUser(scim, "ada@example.com")
    const bob = await createUser(scim, "bob@example.com")
    const group = (
      await scim.call("POST", "/Groups", { body: { schemas: [groupSchema], displayName: "Ops" } })
    ).body
    const added = await scim.call("PATCH", `/Groups/${group.id}`, {
      body: patchOf({
        op: "Add",
        path: "members",
        value: [{ value: ada.id }, { value: bob.id }, { value: "no-such-member" }]
      })
    })
    expect(added.status, added.text).toBe(200)
    expect(added.body.members.map((m: { value: string }) => m.value).sort()).toEqual([ada.id, bob.id].sort())
    const removed = await scim.call("PATCH", `/Groups/${group.id}`, {
      body: patchOf({ op: "Remove", path: `members[value eq "${ada.id}"]` })
    })
    expect(removed.body.members).toEqual([expect.objectContaining({ value: bob.id })])
    expect(await roleOf(api, ada.id)).toBe(scim.readerRoleId)
    const renamed = await scim.call("PATCH", `/Groups/${group.id}`, {
      body: patchOf({ op: "replace", value: { displayName: "Operations" } })
    })
    expect(renamed.body.displayName).toBe("Operations")
  })

  it("deleting a group moves its members to the default role first; the default role itself cannot be emptied", async () => {
    const api = await startApi()
    const scim = await scimFor(api)
    const ada = await createUser(scim, "ada@example.com")
    const group = (
      await scim.call("POST", "/Groups", {
        body: { schemas: [groupSchema], displayName: "Temp", members: [{ value: ada.id }] }
      })
    ).body
    expect((await scim.call("DELETE", `/Groups/${group.id}`)).status).toBe(204)
    expect((await api.call("GET", `/api/v1/team/roles/${group.id}`, asMaster)).status).toBe(404)
    expect(await roleOf(api, ada.id)).toBe(scim.readerRoleId)
    expectScimError(
      await scim.call("PATCH", `/Groups/${scim.readerRoleId}`, {
        body: patchOf({ op: "remove", path: "members" })
      }),
      409,
      "mutability"
    )
    expect(await roleOf(api, ada.id)).toBe(scim.readerRoleId)
  })

  it("without a default role, provisioning answers 409 mutability and creates nobody", async () => {
    const api = await startApi()
    const scim = await scimFor(api)
    const grantsOfReader = await api.call("POST", "/api/v1/team/role-permission-detail", {
      ...asMaster,
      body: { roleId: scim.readerRoleId, permissionId: 2 }
    })
    expect(grantsOfReader.status).toBe(200)
    expectScimError(
      await scim.call("POST", "/Users", {
        body: { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "x@example.com" }
      }),
      409,
      "mutability"
    )
    const members = await api.call("GET", "/api/v1/team/members", asMaster)
    expect(members.body).toEqual([])
    const set = await api.call("PATCH", "/api/v1/organization", {
      ...asMaster,
      body: { defaultRoleId: scim.readerRoleId }
    })
    expect(set.status, set.text).toBe(200)
    expect(
      (
        await scim.call("POST", "/Users", {
          body: { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "x@example.com" }
        })
      ).status
    ).toBe(201)
  })
})
