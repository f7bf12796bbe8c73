import { describe, expect, it } from "vitest"
import {
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"

const newPassword = "a brand new long password"

const logIn = (api: TestApi, username: string, secret: string) =>
  api.call("POST", "/api/v1/auth/login", { body: { username, password: secret } })

const me = (api: TestApi, token: string) => api.call("GET", "/api/v1/auth/me", { token })

const changeOwn = (api: TestApi, token: string, body: unknown) =>
  api.call("POST", "/api/v1/auth/password", { token, body })

describe("POST /api/v1/auth/password", () => {
  it("changes the caller's password; the calling session carries on, every other one ends", async () => {
    const api = await startApi()
    const rita = await memberWithPermissions(api, "rita", [1])
    const other = await logIn(api, "rita", password)
    const changed = await changeOwn(api, rita.token, { currentPassword: password, newPassword })
    expect(changed.status, changed.text).toBe(200)
    expect(changed.body.message).toEqual(expect.any(String))
    expect(changed.text).not.toContain(newPassword)
    expect((await me(api, rita.token)).status).toBe(200)
    expectProblem(await me(api, other.body.token), 401, "unauthorized")
    expectProblem(await logIn(api, "rita", password), 401, "unauthorized")
    expect((await logIn(api, "rita", newPassword)).status).toBe(200)
  })

  it("refuses a wrong current password with 403 wrong_password and changes nothing", async () => {
    const api = await startApi()
    const rita = await memberWithPermissions(api, "rita", [1])
    const other = await logIn(api, "rita", password)
    expectProblem(
      await changeOwn(api, rita.token, { currentPassword: "not the password", newPassword }),
      403,
      "wrong_password"
    )
    expect((await me(api, other.body.token)).status).toBe(200)
    expect((await logIn(api, "rita", password)).status).toBe(200)
  })

  it("throttles guesses at the current password like logins, with Retry-After", async () => {
    const api = await startApi({ throttle: { maxFailuresPerAccount: 2, maxFailuresPerClient: 100 } })
    const rita = await memberWithPermissions(api, "rita", [1])
    for (let i = 0; i < 2; i++) {
      expectProblem(
        await changeOwn(api, rita.token, { currentPassword: `guess ${i}`, newPassword }),
        403,
        "wrong_password"
      )
    }
    const refused = await changeOwn(api, rita.token, { currentPassword: password, newPassword })
    expectProblem(refused, 429, "rate_limited")
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    expectProblem(await logIn(api, "rita", password), 429, "rate_limited")
  })

  it("is for signed-in members; the new password follows the password rules, and nothing else is accepted", async () => {
    const api = await startApi()
    expectProblem(
      await changeOwn(api, masterKey, { currentPassword: password, newPassword }),
      403,
      "forbidden"
    )
    expectProblem(
      await api.call("POST", "/api/v1/auth/password", { body: { currentPassword: password, newPassword } }),
      401,
      "unauthorized"
    )
    const rita = await memberWithPermissions(api, "rita", [])
    for (const body of [
      { currentPassword: password, newPassword: "short" },
      { currentPassword: password },
      { currentPassword: "", newPassword },
      { currentPassword: password, newPassword, username: "other" },
      { currentPassword: password, newPassword: 12345678 }
    ]) {
      expectProblem(await changeOwn(api, rita.token, body), 400, "validation_failed")
    }
    expect((await logIn(api, "rita", password)).status).toBe(200)
  })
})

describe("POST /api/v1/admin/members/{id}/password", () => {
  const setPassword = (api: TestApi, id: string, token: string, body: unknown = { newPassword }) =>
    api.call("POST", `/api/v1/admin/members/${id}/password`, { token, body })

  it("sets a member's password and ends all their sessions", async () => {
    const api = await startApi()
    const rita = await memberWithPermissions(api, "rita", [1])
    const set = await setPassword(api, rita.member.id, masterKey)
    expect(set.status, set.text).toBe(200)
    expectProblem(await me(api, rita.token), 401, "unauthorized")
    expectProblem(await logIn(api, "rita", password), 401, "unauthorized")
    expect((await logIn(api, "rita", newPassword)).status).toBe(200)
    expectProblem(await setPassword(api, "nobody", masterKey), 404, "not_found")
    expectProblem(
      await setPassword(api, rita.member.id, masterKey, { newPassword: "short" }),
      400,
      "validation_failed"
    )
  })

  it("needs admin.accounts.write, and no more privileged a member than the caller", async () => {
    const api = await startApi()
    const admin = await memberWithPermissions(api, "admin", [1, 7])
    const boss = await memberWithPermissions(api, "boss", [1, 2, 7])
    const reader = await memberWithPermissions(api, "reader", [1])
    expectProblem(await setPassword(api, admin.member.id, reader.token), 403, "forbidden")
    expectProblem(await setPassword(api, boss.member.id, admin.token), 403, "forbidden")
    expect((await me(api, boss.token)).status).toBe(200)
    expect((await setPassword(api, reader.member.id, admin.token)).status).toBe(200)
  })
})
