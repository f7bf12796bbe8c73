import { describe, expect, it } from "vitest"
import { expectProblem, masterKey, memberWithPermissions, startApi, type TestApi } from "../support/http.ts"

const declare = (api: TestApi, key: string, description = "Delete projects", token = masterKey) =>
  api.call("PUT", `/api/v1/permissions/${encodeURIComponent(key)}`, { token, body: { description } })
const retire = (api: TestApi, key: string, token = masterKey) =>
  api.call("DELETE", `/api/v1/permissions/${encodeURIComponent(key)}`, { token })
const catalog = async (api: TestApi) =>
  (await api.call("GET", "/api/v1/team/permissions", { token: masterKey })).body as Array<{
    id: number
    key: string
    kind: string
  }>

describe("declaring product permissions", () => {
  it("is idempotent, from id 1000, for the master key alone; reserved and malformed keys are 400", async () => {
    const api = await startApi()
    const first = await declare(api, "projects.delete")
    expect(first.status, first.text).toBe(200)
    expect(first.body).toMatchObject({ id: 1000, key: "projects.delete", kind: "product" })
    const again = await declare(api, "projects.delete", "Delete a project")
    expect(again.body).toMatchObject({
      id: 1000,
      description: "Delete a project",
      createdAt: first.body.createdAt
    })
    expect((await declare(api, "projects:delete")).body.id).toBe(1001)
    for (const key of ["team.anything", "roster:x", "billing.more", "A.b", "ab", "nodot", "1a.b", "a b.c"])
      expectProblem(await declare(api, key), 400, "validation_failed")
    const reader = await memberWithPermissions(api, "ada", [1])
    expectProblem(await declare(api, "invoices.read", "x", reader.token), 403, "forbidden")
    expectProblem(await retire(api, "projects.delete", reader.token), 403, "forbidden")
    const listed = await catalog(api)
    expect(listed.filter((entry) => entry.kind === "product").map((entry) => entry.key)).toEqual([
      "projects.delete",
      "projects:delete"
    ])
    expect(listed.find((entry) => entry.key === "team.read")?.kind).toBe("roster")
  })
})

describe("granting a product permission", () => {
  it("works like Roster's by id or key; retiring one in use is 409 with its holders, then 422 once retired", async () => {
    const api = await startApi()
    const { id } = (await declare(api, "projects.delete")).body
    const role = await memberWithPermissions(api, "ada", [1])
    const byKey = await api.call("POST", "/api/v1/team/role-permission-detail", {
      token: masterKey,
      body: { roleId: role.role.id, permissionId: "projects.delete" }
    })
    expect(byKey.status, byKey.text).toBe(200)
    expect(byKey.body.permissionIds).toContain(id)
    const me = await api.call("GET", "/api/v1/auth/me", { token: role.token })
    expect(me.body.permissions).toContain("projects.delete")
    const key = await api.call("POST", "/api/v1/organization/api-keys", {
      token: masterKey,
      body: { name: "ci", permissions: [id] }
    })
    expect(key.status, key.text).toBe(200)
    // A member may not grant what they lack: the ceiling holds for product permissions too.
    const granter = await memberWithPermissions(api, "bob", [1, 4])
    expectProblem(
      await api.call("POST", "/api/v1/team/role-permission-detail", {
        token: granter.token,
        body: { roleId: granter.role.id, permissionId: id }
      }),
      403,
      "forbidden"
    )
    const inUse = expectProblem(await retire(api, "projects.delete"), 409, "permission_in_use")
    expect(inUse.holders).toEqual({ roles: 1, apiKeys: 1, scimTokens: 0 })
    expect((await catalog(api)).some((entry) => entry.id === id)).toBe(true)
    await api.call("DELETE", `/api/v1/team/role-permission-detail/${byKey.body.id}`, {
      token: masterKey,
      body: { permissionId: id }
    })
    await api.call("DELETE", `/api/v1/organization/api-keys/${key.body.id}`, { token: masterKey })
    const retired = await retire(api, "projects.delete")
    expect(retired.status, retired.text).toBe(200)
    expect((await catalog(api)).some((entry) => entry.id === id)).toBe(false)
    expectProblem(
      await api.call("POST", "/api/v1/team/role-permission-detail", {
        token: masterKey,
        body: { roleId: role.role.id, permissionId: id }
      }),
      422,
      "unknown_permission"
    )
    expectProblem(await retire(api, "projects.delete"), 404, "not_found")
    expect((await declare(api, "projects.delete")).body.id).toBe(id)
  })
})
