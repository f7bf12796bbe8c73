import { describe, expect, it } from "vitest"
import { everyPermission, expectProblem, masterKey, startApi } from "../support/http.ts"
import {
  acme,
  administers,
  asMaster,
  declare,
  grant,
  inAcme,
  organizationWrite,
  permissionsWrite,
  read,
  retire,
  roleHolding,
  signedInMember,
  standing
} from "../support/product-permissions.ts"
import { createUser, expectScimError, patchOf, type Scim } from "../support/scim.ts"

describe("a SCIM token and a product permission", () => {
  it("a SCIM token holds what its maker held, one made with every permission also what is declared later", async () => {
    const api = await startApi()
    const projects = await declare(api, "projects.delete")
    await roleHolding(api, "reader", [read])
    const scimOf = async (token: string): Promise<Scim> => {
      const made = await api.call("POST", "/api/v1/organization/scim-tokens", {
        token,
        body: { name: "IdP" }
      })
      expect(made.status, made.text).toBe(200)
      const scim = made.body.token as string
      return {
        token: scim,
        tokenId: made.body.id,
        readerRoleId: 0,
        call: (method, path, { body } = {}) =>
          api.call(method, `/scim/v2${path}`, {
            token: scim,
            body,
            headers: { "content-type": "application/scim+json" }
          })
      }
    }
    const maker = (username: string, more: ReadonlyArray<number>) =>
      roleHolding(api, `${username}-role`, [...administers, organizationWrite, ...more]).then((role) =>
        signedInMember(api, username, role.id)
      )
    const holding = await scimOf((await maker("sam", [projects])).token)
    const lacking = await scimOf((await maker("sid", [])).token)
    const every = await scimOf(masterKey)
    const invoices = await declare(api, "invoices:read")
    const scimTokens = (await api.call("GET", "/api/v1/organization/scim-tokens", asMaster)).body
    expect(scimTokens.find((token: { id: string }) => token.id === holding.tokenId).permissionIds).toEqual(
      [...administers, projects].sort((a, b) => a - b)
    )
    // Into a group (a role) holding it: only a token holding it may move someone there.
    const intoGroup = async (scim: Scim, roleId: number, userName: string) => {
      const user = await createUser(scim, userName)
      const patch = patchOf({ op: "add", path: "members", value: [{ value: user.id }] })
      return { answer: await scim.call("PATCH", `/Groups/${roleId}`, { body: patch }), id: user.id as string }
    }
    const builders = await roleHolding(api, "builders", [read, projects])
    const refused = await intoGroup(lacking, builders.id, "lee@example.com")
    expectScimError(refused.answer, 403)
    expect((await api.call("GET", `/api/v1/team/members/${refused.id}`, asMaster)).body.roleId).not.toBe(
      builders.id
    )
    expect((await intoGroup(holding, builders.id, "lia@example.com")).answer.status).toBe(200)
    const accountants = await roleHolding(api, "accountants", [read, invoices])
    expectScimError((await intoGroup(holding, accountants.id, "len@example.com")).answer, 403)
    const moved = await intoGroup(every, accountants.id, "liv@example.com")
    expect(moved.answer.status, moved.answer.text).toBe(200)
    expect((await api.call("GET", `/api/v1/team/members/${moved.id}`, asMaster)).body.roleId).toBe(
      accountants.id
    )
    // Every permission is a marker, not a grant of each: retiring counts only the explicit ones.
    expect(expectProblem(await retire(api, "invoices:read"), 409, "permission_in_use").holders).toEqual({
      roles: 1,
      apiKeys: 0,
      scimTokens: 0
    })
    expect(expectProblem(await retire(api, "projects.delete"), 409, "permission_in_use").holders).toEqual({
      roles: 2,
      apiKeys: 0,
      scimTokens: 1
    })
  })
})

describe("owners and a product permission", () => {
  it("the Owner role holds one declared after the organisation was made; who is an owner does not change", async () => {
    const api = await startApi()
    const ownerRoleId = await acme(api)
    const olga = await signedInMember(api, "olga", ownerRoleId, inAcme)
    const staff = await roleHolding(api, "staff", [read, permissionsWrite], inAcme)
    const lee = await signedInMember(api, "lee", staff.id, inAcme)
    const projects = await declare(api, "projects.delete")
    expect(await standing(api, olga.token, "projects.delete")).toEqual({ reason: "granted", listed: true })
    expectProblem(await grant(api, staff.id, projects, { token: lee.token }), 403, "forbidden")
    expect((await grant(api, staff.id, projects, { token: olga.token })).status).toBe(200)
    const deactivate = (id: string, credentials = asMaster) =>
      api.call("PATCH", `/api/v1/team/members/${id}`, { ...credentials, body: { activestatus: false } })
    expectProblem(await deactivate(olga.id, inAcme), 409, "last_owner")
    expect(await standing(api, olga.token, "projects.delete")).toEqual({ reason: "granted", listed: true })
  })

  it("the default organisation (no Owner role): holders of Roster's every permission stay its owners", async () => {
    const api = await startApi()
    const root = await signedInMember(api, "root", (await roleHolding(api, "admins", everyPermission)).id)
    const builder = await roleHolding(api, "builders", [...everyPermission.filter((id) => id !== 8)])
    const bob = await signedInMember(api, "bob", builder.id)
    const projects = await declare(api, "projects.delete")
    expect((await grant(api, builder.id, projects)).status).toBe(200)
    expect(await standing(api, root.token, "projects.delete")).toEqual({
      reason: "not_granted",
      listed: false
    })
    const deactivate = (id: string) =>
      api.call("PATCH", `/api/v1/team/members/${id}`, { ...asMaster, body: { activestatus: false } })
    expectProblem(await deactivate(root.id), 409, "last_owner")
    expect((await deactivate(bob.id)).status).toBe(200)
    expect((await api.call("GET", "/api/v1/auth/me", { token: root.token })).status).toBe(200)
  })
})
