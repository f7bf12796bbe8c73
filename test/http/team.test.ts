import { describe, expect, it } from "vitest"
import {
  addRole,
  expectProblem,
  masterKey,
  memberFields,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"
import { publishedPermissions } from "../support/role-permissions.ts"

type Body = Record<string, unknown>

const memberBody = (username: string, roleId: number, overrides: Body = {}): Body => ({
  username,
  email: `${username}@example.com`,
  password,
  activestatus: true,
  roleId,
  ...overrides
})

const addMember = (api: TestApi, body: Body, token = masterKey) =>
  api.call("POST", "/api/v1/team/add", { token, body })

/** A fresh API with one role (`staff`, no permissions); returns the api and the role's id. */
const apiWithRole = async () => {
  const api = await startApi()
  const role = await addRole(api, { name: "Staff", roleKey: "staff" }, { token: masterKey })
  return { api, roleId: role.body.id as number }
}

/** A signed-in member of a new role holding `permissionIds`; fails the test if the setup did not work. */
const signedIn = async (api: TestApi, username: string, permissionIds: ReadonlyArray<number>) => {
  const member = await memberWithPermissions(api, username, permissionIds)
  expect(member.token).toMatch(/^rss_/)
  return member
}

/** The fields `POST /team/add` requires. */
const memberBodyFields = ["username", "email", "password", "activestatus", "roleId"]

const paths = (problem: Body) => (problem.errors as Array<{ path: string }>).map((issue) => issue.path)

describe("POST /api/v1/team/add", () => {
  it("answers the member in the contract's shape, e-mail lower-cased, never the password", async () => {
    const { api, roleId } = await apiWithRole()
    const added = await addMember(api, memberBody("Ada", roleId, { email: "Ada.Lovelace@Example.COM" }))
    expect(added.status).toBe(200)
    expect(Object.keys(added.body).sort()).toEqual(memberFields)
    expect(added.body).toMatchObject({
      username: "Ada",
      email: "ada.lovelace@example.com",
      activestatus: true,
      accountActiveStatus: true,
      roleId
    })
    expect(Number.isNaN(Date.parse(added.body.createdAt))).toBe(false)
    const one = await api.call("GET", `/api/v1/team/members/${added.body.id}`, { token: masterKey })
    const all = await api.call("GET", "/api/v1/team/members", { token: masterKey })
    expect(one.body).toEqual(added.body)
    expect(all.body).toEqual([added.body])
    for (const answer of [added, one, all]) {
      expect(answer.text).not.toMatch(/password/i)
      expect(answer.text).not.toContain(password)
    }
  })

  it("refuses an `id` or an `accountActiveStatus` the client sends, storing nothing", async () => {
    const { api, roleId } = await apiWithRole()
    for (const extra of [{ id: "chosen-id" }, { accountActiveStatus: false }]) {
      const problem = expectProblem(
        await addMember(api, memberBody("grace", roleId, extra)),
        400,
        "validation_failed"
      )
      expect(paths(problem)).toEqual([`body.${Object.keys(extra)[0]}`])
    }
    expect((await api.call("GET", "/api/v1/team/members", { token: masterKey })).body).toEqual([])
  })

  it("lists every invalid or missing field at once", async () => {
    const { api } = await apiWithRole()
    const bad = { username: "x", email: "not-an-email", password: "short", activestatus: "yes", roleId: "1" }
    for (const body of [bad, {}]) {
      const problem = expectProblem(await addMember(api, body), 400, "validation_failed")
      expect(paths(problem)).toEqual(expect.arrayContaining(memberBodyFields.map((field) => `body.${field}`)))
    }
    expect((await api.call("GET", "/api/v1/team/members", { token: masterKey })).body).toEqual([])
  })

  it("refuses a duplicate e-mail or username, ignoring case", async () => {
    const { api, roleId } = await apiWithRole()
    expect((await addMember(api, memberBody("Ada", roleId))).status).toBe(200)
    const sameEmail = memberBody("other", roleId, { email: "ADA@example.com" })
    expectProblem(await addMember(api, sameEmail), 409, "duplicate_email")
    const sameName = memberBody("ada", roleId, { email: "someone@example.com" })
    expectProblem(await addMember(api, sameName), 409, "duplicate_username")
    expect((await api.call("GET", "/api/v1/team/members", { token: masterKey })).body).toHaveLength(1)
  })

  it("refuses a role that does not exist with 422", async () => {
    const { api } = await apiWithRole()
    for (const roleId of [999, 0, -1]) {
      expectProblem(await addMember(api, memberBody("ada", roleId)), 422, "unknown_role")
    }
  })

  it("requires a token, and team.members.write", async () => {
    const { api, roleId } = await apiWithRole()
    const anonymous = await api.call("POST", "/api/v1/team/add", { body: memberBody("ada", roleId) })
    expectProblem(anonymous, 401, "unauthorized")
    expectProblem(await addMember(api, memberBody("ada", roleId), "rss_bogus"), 401, "unauthorized")
    const reader = await signedIn(api, "reader", [1])
    expectProblem(await addMember(api, memberBody("ada", roleId), reader.token), 403, "forbidden")
  })

  it("refuses to add a member to a role holding more permissions than the caller's", async () => {
    const api = await startApi()
    const hr = await signedIn(api, "hr-clerk", [1, 2])
    const admin = await signedIn(api, "admin", [1, 2, 7])
    const modest = await signedIn(api, "modest", [1])
    expectProblem(await addMember(api, memberBody("eve", admin.role.id), hr.token), 403, "forbidden")
    expect((await addMember(api, memberBody("bob", modest.role.id), hr.token)).status).toBe(200)
  })

  it("acts with full access without a token in open local mode", async () => {
    const api = await startApi({ mode: "open" })
    const role = await api.call("POST", "/api/v1/team/role/add", {
      body: { name: "Staff", roleKey: "staff" }
    })
    const added = await api.call("POST", "/api/v1/team/add", { body: memberBody("ada", role.body.id) })
    expect(added.status).toBe(200)
  })
})

describe("POST /api/v1/team/role/add", () => {
  it("answers the role; activeStatus defaults to true and ids increase", async () => {
    const api = await startApi()
    const first = await addRole(api, { name: "Staff", roleKey: "staff" }, { token: masterKey })
    expect(first.status).toBe(200)
    expect(Object.keys(first.body).sort()).toEqual([
      "activeStatus",
      "createdAt",
      "id",
      "name",
      "permissionIds",
      "recordId",
      "roleKey"
    ])
    expect(first.body).toMatchObject({
      name: "Staff",
      roleKey: "staff",
      activeStatus: true,
      permissionIds: [],
      recordId: null
    })
    expect(Number.isInteger(first.body.id)).toBe(true)
    const second = await addRole(
      api,
      { name: "Dormant", roleKey: "dormant", activeStatus: false },
      { token: masterKey }
    )
    expect(second.body.activeStatus).toBe(false)
    expect(second.body.id).toBeGreaterThan(first.body.id)
    const roles = await api.call("GET", "/api/v1/team/roles", { token: masterKey })
    expect(roles.body).toEqual([first.body, second.body])
  })

  it("answers a role with what it holds and its record's id, and the record by the role", async () => {
    const api = await startApi()
    const asMaster = { token: masterKey }
    const role = (await addRole(api, { name: "Staff", roleKey: "staff" }, asMaster)).body
    const recordPath = `/api/v1/team/roles/${role.id}/permissions`
    expectProblem(await api.call("GET", recordPath, asMaster), 404, "not_found")
    for (const permissionId of [4, 1]) {
      const grant = { roleId: role.id, permissionId }
      await api.call("POST", "/api/v1/team/role-permission-detail", { ...asMaster, body: grant })
    }
    const read = (await api.call("GET", `/api/v1/team/roles/${role.id}`, asMaster)).body
    expect(read).toMatchObject({ id: role.id, permissionIds: [1, 4] })
    const record = await api.call("GET", recordPath, asMaster)
    expect(record.status, record.text).toBe(200)
    expect(record.body).toMatchObject({ id: read.recordId, roleId: role.id, permissionIds: [1, 4] })
    const byId = await api.call("GET", `/api/v1/team/role-permission-detail/${read.recordId}`, asMaster)
    expect(byId.body).toEqual(record.body)
    const listed = (await api.call("GET", "/api/v1/team/roles", asMaster)).body
    expect(listed).toEqual([read])
    const renamed = await api.call("PATCH", `/api/v1/team/roles/${role.id}`, {
      ...asMaster,
      body: { name: "Crew" }
    })
    expect(renamed.body).toMatchObject({ name: "Crew", permissionIds: [1, 4], recordId: read.recordId })
    expectProblem(
      await api.call("GET", `/api/v1/team/roles/${role.id + 9}/permissions`, asMaster),
      404,
      "not_found"
    )
  })

  it("reads one role by id: 404 when there is none, 400 when the id is not an integer, team.read needed", async () => {
    const api = await startApi()
    const role = await addRole(api, { name: "Staff", roleKey: "staff" }, { token: masterKey })
    const read = await api.call("GET", `/api/v1/team/roles/${role.body.id}`, { token: masterKey })
    expect(read.status).toBe(200)
    expect(read.body).toEqual(role.body)
    expectProblem(
      await api.call("GET", `/api/v1/team/roles/${role.body.id + 1}`, { token: masterKey }),
      404,
      "not_found"
    )
    for (const id of ["staff", "1.5", "01"]) {
      expectProblem(
        await api.call("GET", `/api/v1/team/roles/${id}`, { token: masterKey }),
        400,
        "validation_failed"
      )
    }
    const writer = await memberWithPermissions(api, "wanda", [3])
    const refused = await api.call("GET", `/api/v1/team/roles/${role.body.id}`, { token: writer.token })
    expectProblem(refused, 403, "forbidden")
    expect(refused.body.permission).toBe("team.read")
  })

  it("changes a role with PATCH: merge semantics, 409 for a taken key, 404, 400 for other fields", async () => {
    const api = await startApi()
    const staff = await addRole(api, { name: "Staff", roleKey: "staff" }, { token: masterKey })
    await addRole(api, { name: "Crew", roleKey: "crew" }, { token: masterKey })
    const path = `/api/v1/team/roles/${staff.body.id}`
    const patched = await api.call("PATCH", path, {
      token: masterKey,
      body: { name: "Team", activeStatus: false }
    })
    expect(patched.status).toBe(200)
    expect(patched.body).toEqual({
      ...staff.body,
      name: "Team",
      activeStatus: false,
      deactivatedAt: expect.any(String)
    })
    expect((await api.call("GET", path, { token: masterKey })).body).toEqual(patched.body)
    expectProblem(
      await api.call("PATCH", path, { token: masterKey, body: { roleKey: "crew" } }),
      409,
      "duplicate_role_key"
    )
    const missing = `/api/v1/team/roles/${staff.body.id + 10}`
    expectProblem(
      await api.call("PATCH", missing, { token: masterKey, body: { name: "X" } }),
      404,
      "not_found"
    )
    for (const body of [
      { id: 7 },
      { createdAt: "2020-01-01T00:00:00Z" },
      { name: "" },
      { activeStatus: "no" }
    ]) {
      expectProblem(await api.call("PATCH", path, { token: masterKey, body }), 400, "validation_failed")
    }
    expect((await api.call("GET", path, { token: masterKey })).body).toEqual(patched.body)
  })

  it("ends a deactivated role's members' sessions at once", async () => {
    const api = await startApi()
    const member = await memberWithPermissions(api, "rita", [1])
    expect((await api.call("GET", "/api/v1/team/roles", { token: member.token })).status).toBe(200)
    const path = `/api/v1/team/roles/${member.role.id}`
    expect((await api.call("PATCH", path, { token: masterKey, body: { activeStatus: false } })).status).toBe(
      200
    )
    expectProblem(await api.call("GET", "/api/v1/team/roles", { token: member.token }), 401, "unauthorized")
  })

  it("refuses a duplicate roleKey with 409", async () => {
    const api = await startApi()
    await addRole(api, { name: "Staff", roleKey: "staff" }, { token: masterKey })
    expectProblem(
      await addRole(api, { name: "Other", roleKey: "staff" }, { token: masterKey }),
      409,
      "duplicate_role_key"
    )
  })

  it("lists every invalid field, and requires team.roles.write", async () => {
    const api = await startApi()
    const problem = expectProblem(
      await addRole(api, { name: "", roleKey: "Not A Slug", activeStatus: "yes" }, { token: masterKey }),
      400,
      "validation_failed"
    )
    expect(paths(problem)).toEqual(expect.arrayContaining(["body.name", "body.roleKey", "body.activeStatus"]))
    const reader = await signedIn(api, "reader", [1])
    expectProblem(await addRole(api, { name: "X", roleKey: "x" }, { token: reader.token }), 403, "forbidden")
  })
})

describe("team reads", () => {
  const reads = ["/members", "/members/some-id", "/roles", "/permissions"]

  it("answers 404 not_found for an unknown member", async () => {
    const api = await startApi()
    expectProblem(
      await api.call("GET", "/api/v1/team/members/nobody", { token: masterKey }),
      404,
      "not_found"
    )
  })

  it("lists the catalog permissions as published", async () => {
    const api = await startApi()
    const answer = await api.call("GET", "/api/v1/team/permissions", { token: masterKey })
    expect(answer.status).toBe(200)
    expect(answer.body.map((p: Body) => [p.id, p.key])).toEqual(publishedPermissions)
    for (const permission of answer.body) {
      expect(Object.keys(permission).sort()).toEqual(["description", "id", "key", "kind"])
      expect(permission.description).not.toBe("")
    }
  })

  it("require a token, and team.read", async () => {
    const api = await startApi()
    const nobody = await signedIn(api, "nobody", [2])
    for (const path of reads) {
      expectProblem(await api.call("GET", `/api/v1/team${path}`), 401, "unauthorized")
      expectProblem(await api.call("GET", `/api/v1/team${path}`, { token: nobody.token }), 403, "forbidden")
    }
  })
})
