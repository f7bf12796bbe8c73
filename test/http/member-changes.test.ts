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

const addMember = (api: TestApi, username: string, roleId: number) =>
  api.call("POST", "/api/v1/team/add", {
    ...asMaster,
    body: { username, email: `${username}@example.com`, password, activestatus: true, roleId }
  })

const patch = (api: TestApi, id: string, body: unknown, token = masterKey) =>
  api.call("PATCH", `/api/v1/team/members/${id}`, { token, body })

const me = (api: TestApi, token: string) => api.call("GET", "/api/v1/auth/me", { token })

describe("PATCH /api/v1/team/members/{id}", () => {
  it("changes only what it is given, e-mail lower-cased, and answers the member", async () => {
    const api = await startApi()
    const staff = await addRole(api, "staff", asMaster)
    const crew = await addRole(api, "crew", asMaster)
    const ada = await addMember(api, "ada", staff.body.id)
    const changed = await patch(api, ada.body.id, { email: "Ada.L@Example.COM", username: "lovelace" })
    expect(changed.status, changed.text).toBe(200)
    expect(changed.body).toEqual({ ...ada.body, email: "ada.l@example.com", username: "lovelace" })
    const moved = await patch(api, ada.body.id, { roleId: crew.body.id, activestatus: false })
    expect(moved.body).toEqual({ ...changed.body, roleId: crew.body.id, activestatus: false })
    expect((await api.call("GET", `/api/v1/team/members/${ada.body.id}`, asMaster)).body).toEqual(moved.body)
    expect((await patch(api, ada.body.id, {})).body).toEqual(moved.body)
  })

  it("keeps the rules of adding: 409 for taken names, 422 for an unknown role, 400 for other fields", async () => {
    const api = await startApi()
    const staff = await addRole(api, "staff", asMaster)
    const ada = await addMember(api, "ada", staff.body.id)
    await addMember(api, "grace", staff.body.id)
    expectProblem(await patch(api, ada.body.id, { email: "GRACE@example.com" }), 409, "duplicate_email")
    expectProblem(await patch(api, ada.body.id, { username: "Grace" }), 409, "duplicate_username")
    expectProblem(await patch(api, ada.body.id, { roleId: 999 }), 422, "unknown_role")
    for (const body of [
      { password: "another long password" },
      { accountActiveStatus: false },
      { id: "x" },
      { createdAt: "2020-01-01T00:00:00Z" },
      { username: "a" },
      { email: "not-an-email" },
      { activestatus: "yes" },
      { roleId: 1.5 },
      []
    ]) {
      expectProblem(await patch(api, ada.body.id, body), 400, "validation_failed")
    }
    expectProblem(await patch(api, "nobody", { username: "nobody" }), 404, "not_found")
    expect((await api.call("GET", `/api/v1/team/members/${ada.body.id}`, asMaster)).body).toEqual(ada.body)
  })

  it("ends the member's sessions when their role changes or they are deactivated, not on a rename", async () => {
    const api = await startApi()
    const other = await addRole(api, "other", asMaster)
    const rita = await memberWithPermissions(api, "rita", [1])
    expect((await patch(api, rita.member.id, { username: "rita2" })).status).toBe(200)
    expect((await me(api, rita.token)).status).toBe(200)
    expect((await patch(api, rita.member.id, { roleId: other.body.id })).status).toBe(200)
    expectProblem(await me(api, rita.token), 401, "unauthorized")

    const sam = await memberWithPermissions(api, "sam", [1])
    expect((await patch(api, sam.member.id, { activestatus: false })).status).toBe(200)
    expectProblem(await me(api, sam.token), 401, "unauthorized")
  })

  it("refuses deactivating oneself, or reaching beyond one's own permissions", async () => {
    const api = await startApi()
    const lead = await memberWithPermissions(api, "lead", [1, 2])
    const boss = await memberWithPermissions(api, "boss", [1, 2, 7])
    const plain = await addRole(api, "plain", asMaster)
    const pat = await addMember(api, "pat", plain.body.id)
    expectProblem(await patch(api, lead.member.id, { activestatus: false }, lead.token), 403, "forbidden")
    expectProblem(await patch(api, boss.member.id, { username: "bossy" }, lead.token), 403, "forbidden")
    expectProblem(await patch(api, pat.body.id, { roleId: boss.role.id }, lead.token), 403, "forbidden")
    const reader = await memberWithPermissions(api, "reader", [1])
    expectProblem(await patch(api, pat.body.id, { username: "patty" }, reader.token), 403, "forbidden")
    expect((await patch(api, pat.body.id, { roleId: lead.role.id }, lead.token)).status).toBe(200)
  })
})

describe("DELETE /api/v1/team/members/{id}", () => {
  it("removes a member, answers them, ends their sessions and frees their names", async () => {
    const api = await startApi()
    const rita = await memberWithPermissions(api, "rita", [1])
    const path = `/api/v1/team/members/${rita.member.id}`
    const removed = await api.call("DELETE", path, asMaster)
    expect(removed.status, removed.text).toBe(200)
    expect(removed.body).toEqual(rita.member)
    expectProblem(await api.call("GET", path, asMaster), 404, "not_found")
    expectProblem(await me(api, rita.token), 401, "unauthorized")
    expectProblem(await api.call("DELETE", path, asMaster), 404, "not_found")
    expect((await addMember(api, "rita", rita.role.id)).status).toBe(200)
  })

  it("refuses removing oneself, someone more privileged, or without team.members.write", async () => {
    const api = await startApi()
    const lead = await memberWithPermissions(api, "lead", [1, 2])
    const boss = await memberWithPermissions(api, "boss", [1, 2, 7])
    const reader = await memberWithPermissions(api, "reader", [1])
    const remove = (id: string, token: string) => api.call("DELETE", `/api/v1/team/members/${id}`, { token })
    expectProblem(await remove(lead.member.id, lead.token), 403, "forbidden")
    expectProblem(await remove(boss.member.id, lead.token), 403, "forbidden")
    expectProblem(await remove(lead.member.id, reader.token), 403, "forbidden")
    expect((await remove(reader.member.id, lead.token)).status).toBe(200)
  })
})
