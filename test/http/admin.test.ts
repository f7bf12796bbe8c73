import { describe, expect, it } from "vitest"
import {
  type Answer,
  everyPermission,
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"

const toggle = (api: TestApi, body: unknown, token = masterKey) =>
  api.call("POST", "/api/v1/admin/toggle-account-status", { token, body })

const setStatus = (api: TestApi, userId: string, accountActiveStatus: boolean, token = masterKey) =>
  toggle(api, { user_id: userId, accountActiveStatus }, token)

const logIn = (api: TestApi, username: string) =>
  api.call("POST", "/api/v1/auth/login", { body: { username, password } })

const me = (api: TestApi, token: string) => api.call("GET", "/api/v1/auth/me", { token })

/** 200 with a body of exactly one key, `message`, a non-empty string. */
const expectMessage = (answer: Answer) => {
  expect(answer.status, answer.text).toBe(200)
  expect(Object.keys(answer.body)).toEqual(["message"])
  expect(typeof answer.body.message).toBe("string")
  expect(answer.body.message.length).toBeGreaterThan(0)
}

describe("POST /api/v1/admin/toggle-account-status", () => {
  it("answers 200 with exactly { message } for both directions", async () => {
    const api = await startApi()
    const { member } = await memberWithPermissions(api, "bob", [1])
    expectMessage(await setStatus(api, member.id, false))
    expectMessage(await setStatus(api, member.id, true))
  })

  it("disabling revokes the member's sessions at once and refuses their login with 403", async () => {
    const api = await startApi()
    const { member, token } = await memberWithPermissions(api, "bob", [1])
    expect((await me(api, token)).status).toBe(200)

    expectMessage(await setStatus(api, member.id, false))

    expectProblem(await me(api, token), 401, "unauthorized")
    expectProblem(await api.call("GET", "/api/v1/team/roles", { token }), 401, "unauthorized")
    expectProblem(await logIn(api, "bob"), 403, "forbidden")
    const stored = await api.call("GET", `/api/v1/team/members/${member.id}`, { token: masterKey })
    expect(stored.body.accountActiveStatus).toBe(false)
  })

  it("re-enabling lets the member log in again, but the old token stays dead", async () => {
    const api = await startApi()
    const { member, token: oldToken } = await memberWithPermissions(api, "bob", [1])
    expectMessage(await setStatus(api, member.id, false))
    expectMessage(await setStatus(api, member.id, true))

    const login = await logIn(api, "bob")
    expect(login.status, login.text).toBe(200)
    expect(login.body.member.accountActiveStatus).toBe(true)
    expect((await me(api, login.body.token)).status).toBe(200)
    expectProblem(await me(api, oldToken), 401, "unauthorized")
  })

  it("answers an unknown user_id with 404 not_found", async () => {
    const api = await startApi()
    expectProblem(await setStatus(api, "00000000-0000-4000-8000-000000000000", false), 404, "not_found")
  })

  it("a member with admin.accounts.write cannot disable themselves (403) and stays signed in", async () => {
    const api = await startApi()
    const admin = await memberWithPermissions(api, "admin", [1, 7])
    const answer = await setStatus(api, admin.member.id, false, admin.token)
    expectProblem(answer, 403, "forbidden")
    expect(answer.body.detail).toMatch(/themselves/)
    expect((await me(api, admin.token)).status).toBe(200)
  })

  it("not even the master key disables the only owner (409 last_owner); with a second, it may", async () => {
    const api = await startApi()
    const owner = await memberWithPermissions(api, "owner", everyPermission)
    expectProblem(await setStatus(api, owner.member.id, false), 409, "last_owner")
    expect((await me(api, owner.token)).status).toBe(200)
    await memberWithPermissions(api, "coowner", everyPermission)
    expectMessage(await setStatus(api, owner.member.id, false))
    expectProblem(await me(api, owner.token), 401, "unauthorized")
  })

  it("a member with admin.accounts.write can disable a member whose permissions they hold", async () => {
    const api = await startApi()
    const admin = await memberWithPermissions(api, "admin", [1, 7])
    const bob = await memberWithPermissions(api, "bob", [1])
    expectMessage(await setStatus(api, bob.member.id, false, admin.token))
    expectProblem(await me(api, bob.token), 401, "unauthorized")
  })

  it("a member cannot disable someone whose role holds permissions they lack (403)", async () => {
    const api = await startApi()
    const admin = await memberWithPermissions(api, "admin", [1, 7])
    const billing = await memberWithPermissions(api, "cfo", [1, 6])
    expectProblem(await setStatus(api, billing.member.id, false, admin.token), 403, "forbidden")
    expect((await me(api, billing.token)).status).toBe(200)
  })

  it("a member without admin.accounts.write gets 403 and changes nothing", async () => {
    const api = await startApi()
    const plain = await memberWithPermissions(api, "plain", [1, 2, 3])
    const bob = await memberWithPermissions(api, "bob", [1])
    const answer = await setStatus(api, bob.member.id, false, plain.token)
    expectProblem(answer, 403, "forbidden")
    expect(answer.body.permission).toBe("admin.accounts.write")
    expect((await me(api, bob.token)).status).toBe(200)
  })

  it("answers wrong types with 400 listing both fields", async () => {
    const api = await startApi()
    const answer = await toggle(api, { user_id: 42, accountActiveStatus: "false" })
    expectProblem(answer, 400, "validation_failed")
    const paths = answer.body.errors.map((issue: { path: string }) => issue.path)
    expect(paths).toEqual(expect.arrayContaining(["body.user_id", "body.accountActiveStatus"]))
  })

  it("answers missing fields with 400", async () => {
    const api = await startApi()
    expectProblem(await toggle(api, {}), 400, "validation_failed")
  })

  it("requires a token in secure mode", async () => {
    const api = await startApi()
    const { member } = await memberWithPermissions(api, "bob", [1])
    const answer = await api.call("POST", "/api/v1/admin/toggle-account-status", {
      body: { user_id: member.id, accountActiveStatus: false }
    })
    expectProblem(answer, 401, "unauthorized")
    expect((await logIn(api, "bob")).status).toBe(200)
  })
})
