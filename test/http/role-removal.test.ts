import { describe, expect, it } from "vitest"
import {
  addRole,
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi
} from "../support/http.ts"

const asMaster = { token: masterKey }

describe("DELETE /api/v1/team/roles/{id}", () => {
  it("deletes a role nobody holds, with its permission record, and answers it", async () => {
    const api = await startApi()
    const role = await addRole(api, "staff", asMaster)
    const grant = await api.call("POST", "/api/v1/team/role-permission-detail", {
      ...asMaster,
      body: { roleId: role.body.id, permissionId: 1 }
    })
    const path = `/api/v1/team/roles/${role.body.id}`
    const removed = await api.call("DELETE", path, asMaster)
    expect(removed.status, removed.text).toBe(200)
    expect(removed.body).toEqual({ ...role.body, permissionIds: [1], recordId: grant.body.id })
    expectProblem(await api.call("GET", path, asMaster), 404, "not_found")
    expectProblem(
      await api.call("GET", `/api/v1/team/role-permission-detail/${grant.body.id}`, asMaster),
      404,
      "not_found"
    )
    expectProblem(await api.call("DELETE", path, asMaster), 404, "not_found")
    expectProblem(await api.call("DELETE", "/api/v1/team/roles/x", asMaster), 400, "validation_failed")
  })

  it("refuses a role a member holds with 409 role_in_use, and deletes it once they moved away", async () => {
    const api = await startApi()
    const holder = await memberWithPermissions(api, "holder", [1])
    const path = `/api/v1/team/roles/${holder.role.id}`
    expectProblem(await api.call("DELETE", path, asMaster), 409, "role_in_use")
    expect((await api.call("GET", path, asMaster)).status).toBe(200)
    const other = await addRole(api, "other", asMaster)
    const moved = await api.call("PATCH", `/api/v1/team/members/${holder.member.id}`, {
      ...asMaster,
      body: { roleId: other.body.id }
    })
    expect(moved.status, moved.text).toBe(200)
    expect((await api.call("DELETE", path, asMaster)).status).toBe(200)
  })

  it("needs team.roles.write, and no permission beyond the caller's in the role", async () => {
    const api = await startApi()
    const reader = await memberWithPermissions(api, "reader", [1])
    const writer = await memberWithPermissions(api, "writer", [1, 3])
    const mighty = await addRole(api, "mighty", asMaster)
    await api.call("POST", "/api/v1/team/role-permission-detail", {
      ...asMaster,
      body: { roleId: mighty.body.id, permissionId: 7 }
    })
    const path = `/api/v1/team/roles/${mighty.body.id}`
    expectProblem(await api.call("DELETE", path, { token: reader.token }), 403, "forbidden")
    expectProblem(await api.call("DELETE", path, { token: writer.token }), 403, "forbidden")
    expectProblem(await api.call("DELETE", path), 401, "unauthorized")
    expect((await api.call("GET", path, asMaster)).status).toBe(200)
  })

  it("racing member adds never leave a member on a deleted role", async () => {
    const api = await startApi()
    for (let round = 0; round < 3; round++) {
      const role = await addRole(api, `temp-${round}`, asMaster)
      const answers = await Promise.all([
        ...Array.from({ length: 5 }, (_, i) =>
          api.call("POST", "/api/v1/team/add", {
            ...asMaster,
            body: {
              username: `racer${round}x${i}`,
              email: `racer${round}x${i}@example.com`,
              password,
              activestatus: true,
              roleId: role.body.id
            }
          })
        ),
        api.call("DELETE", `/api/v1/team/roles/${role.body.id}`, asMaster)
      ])
      const removal = answers[5]
      const members = await api.call("GET", "/api/v1/team/members?limit=200", asMaster)
      const holders = members.body.filter((member: { roleId: number }) => member.roleId === role.body.id)
      const added = answers.slice(0, 5).filter((answer) => answer.status === 200)
      for (const answer of answers.slice(0, 5)) expect([200, 422]).toContain(answer.status)
      expect(holders).toHaveLength(added.length)
      if (removal?.status === 200) expect(holders).toHaveLength(0)
      else expectProblem(removal ?? expect.fail("no answer"), 409, "role_in_use")
    }
  })
})
