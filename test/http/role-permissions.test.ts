import { describe, expect, it } from "vitest"
import {
  addRole,
  expectProblem,
  masterKey,
  memberWithPermissions,
  startApi,
  type TestApi
} from "../support/http.ts"

const base = "/api/v1/team/role-permission-detail"

const paths = (problem: { errors: Array<{ path: string }> }) => problem.errors.map((issue) => issue.path)

const grant = (api: TestApi, roleId: number, permissionId: number, token = masterKey) =>
  api.call("POST", base, { token, body: { roleId, permissionId } })

const remove = (api: TestApi, id: number | string, permissionId: number, token = masterKey) =>
  api.call("DELETE", `${base}/${id}`, { token, body: { permissionId } })

const read = (api: TestApi, id: number | string, token = masterKey) =>
  api.call("GET", `${base}/${id}`, { token })

const roleIdOf = async (api: TestApi, roleKey: string) => {
  const role = await addRole(api, roleKey, { token: masterKey })
  expect(role.status).toBe(200)
  return role.body.id as number
}

/** A signed-in member of a new role holding `permissionIds`, with the id of that role's record. */
const signedIn = async (api: TestApi, username: string, permissionIds: ReadonlyArray<number>) => {
  const member = await memberWithPermissions(api, username, permissionIds)
  expect(member.token).toMatch(/^rss_/)
  const record = await grant(api, member.role.id, permissionIds[0] ?? 1)
  expect(record.body.permissionIds).toEqual([...permissionIds].sort())
  return { ...member, recordId: record.body.id as number }
}

/** A fresh API with one role `staff` whose record holds team.read (1) and team.permissions.write (4). */
const apiWithRecord = async () => {
  const api = await startApi()
  const roleId = await roleIdOf(api, "staff")
  await grant(api, roleId, 1)
  const record = await grant(api, roleId, 4)
  return { api, roleId, record: record.body, id: record.body.id as number }
}

describe("POST /api/v1/team/role-permission-detail", () => {
  it("creates the role's record on the first grant and adds to it after, without duplicates", async () => {
    const api = await startApi()
    const roleId = await roleIdOf(api, "staff")
    const first = await grant(api, roleId, 1)
    expect(first.status).toBe(200)
    expect(Object.keys(first.body).sort()).toEqual(["id", "permissionIds", "roleId", "updatedAt"])
    expect(first.body).toMatchObject({ roleId, permissionIds: [1] })
    const again = await grant(api, roleId, 1)
    expect(again.body).toMatchObject({ id: first.body.id, permissionIds: [1] })
    const more = await grant(api, roleId, 4)
    expect(more.body).toMatchObject({ id: first.body.id, permissionIds: [1, 4] })
    expect((await read(api, first.body.id)).body).toEqual(more.body)
    const other = await grant(api, await roleIdOf(api, "other"), 1)
    expect(other.body.id).not.toBe(first.body.id)
  })

  it("refuses an unknown role (422), a permission outside the catalog (422) and a bad body (400)", async () => {
    const { api, roleId } = await apiWithRecord()
    expectProblem(await grant(api, 999, 1), 422, "unknown_role")
    expectProblem(await grant(api, roleId, 99), 422, "unknown_permission")
    expectProblem(await grant(api, roleId, 0), 422, "unknown_permission")
    const bad = await api.call("POST", base, { token: masterKey, body: { roleId: "x" } })
    expect(paths(expectProblem(bad, 400, "validation_failed"))).toEqual(
      expect.arrayContaining(["body.roleId", "body.permissionId"])
    )
  })

  it("lets a member grant only permissions they hold", async () => {
    const { api, roleId, id } = await apiWithRecord()
    const granter = await signedIn(api, "granter", [1, 4])
    expectProblem(await grant(api, roleId, 7, granter.token), 403, "forbidden")
    expect((await read(api, id)).body.permissionIds).toEqual([1, 4])
    expect((await grant(api, roleId, 1, granter.token)).status).toBe(200)
  })
})

describe("GET and DELETE /api/v1/team/role-permission-detail/{id}", () => {
  it("removes one permission and answers the record; removing it again changes nothing", async () => {
    const { api, roleId, id } = await apiWithRecord()
    const removed = await remove(api, id, 4)
    expect(removed.status).toBe(200)
    expect(removed.body).toMatchObject({ id, roleId, permissionIds: [1] })
    expect((await read(api, id)).body).toEqual(removed.body)
    const again = await remove(api, id, 4)
    expect(again.status).toBe(200)
    expect(again.body).toEqual(removed.body)
    const neverHeld = await remove(api, id, 7)
    expect(neverHeld.body).toEqual(removed.body)
  })

  it("answers 404 for an unknown record and 422 for a permission outside the catalog", async () => {
    const { api, id, record } = await apiWithRecord()
    expectProblem(await remove(api, 999, 1), 404, "not_found")
    expectProblem(await read(api, 999), 404, "not_found")
    expectProblem(await remove(api, id, 99), 422, "unknown_permission")
    expect((await read(api, id)).body).toEqual(record)
  })

  it("answers 400 for a non-numeric id or a missing permissionId", async () => {
    const { api, id, record } = await apiWithRecord()
    expect(paths(expectProblem(await remove(api, "abc", 1), 400, "validation_failed"))).toEqual(["params.id"])
    expect(paths(expectProblem(await read(api, "abc"), 400, "validation_failed"))).toEqual(["params.id"])
    const missing = await api.call("DELETE", `${base}/${id}`, { token: masterKey, body: {} })
    expect(paths(expectProblem(missing, 400, "validation_failed"))).toEqual(["body.permissionId"])
    const asText = await api.call("DELETE", `${base}/${id}`, {
      token: masterKey,
      body: { permissionId: "4" }
    })
    // A string names a permission by its key: no key is "4".
    expectProblem(asText, 422, "unknown_permission")
    expect((await read(api, id)).body).toEqual(record)
  })
})

describe("access to role permissions", () => {
  it("requires a token, team.permissions.write to change and team.read to read", async () => {
    const { api, roleId, id } = await apiWithRecord()
    expectProblem(await api.call("POST", base, { body: { roleId, permissionId: 1 } }), 401, "unauthorized")
    expectProblem(
      await api.call("DELETE", `${base}/${id}`, { body: { permissionId: 1 } }),
      401,
      "unauthorized"
    )
    expectProblem(await api.call("GET", `${base}/${id}`), 401, "unauthorized")
    const reader = await signedIn(api, "reader", [1])
    expectProblem(await grant(api, roleId, 1, reader.token), 403, "forbidden")
    expectProblem(await remove(api, id, 1, reader.token), 403, "forbidden")
    expect((await read(api, id, reader.token)).status).toBe(200)
    const writer = await signedIn(api, "writer", [4])
    expectProblem(await read(api, id, writer.token), 403, "forbidden")
    expect((await read(api, id)).body.permissionIds).toEqual([1, 4])
  })

  it("takes a removed permission away from the member's existing token at once", async () => {
    const api = await startApi()
    const member = await signedIn(api, "reader", [1, 5])
    const members = () => api.call("GET", "/api/v1/team/members", { token: member.token })
    expect((await members()).status).toBe(200)
    expect((await remove(api, member.recordId, 1)).body.permissionIds).toEqual([5])
    expectProblem(await members(), 403, "forbidden")
    expect((await api.call("GET", "/api/v1/pricing/plans", { token: member.token })).status).toBe(200)
  })

  it("refuses a member taking a permission from their own role (403), which keeps it", async () => {
    const api = await startApi()
    const self = await signedIn(api, "selfish", [1, 4])
    expectProblem(await remove(api, self.recordId, 1, self.token), 403, "forbidden")
    expect((await read(api, self.recordId, self.token)).body.permissionIds).toEqual([1, 4])
  })

  it("refuses removing a permission the caller holds from a role holding more (403)", async () => {
    const api = await startApi()
    const remover = await signedIn(api, "remover", [1, 4])
    const admins = await signedIn(api, "admins", [1, 4, 7])
    expectProblem(await remove(api, admins.recordId, 1, remover.token), 403, "forbidden")
    expect((await read(api, admins.recordId)).body.permissionIds).toEqual([1, 4, 7])
  })
})
