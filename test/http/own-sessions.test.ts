import { describe, expect, it } from "vitest"
import {
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"

const sessions = "/api/v1/auth/sessions"
const loginFrom = async (api: TestApi, username: string, userAgent: string, client: string) => {
  const answer = await api.call("POST", "/api/v1/auth/login", {
    body: { username, password },
    headers: { "user-agent": userAgent },
    client
  })
  expect(answer.status, answer.text).toBe(200)
  return answer.body.token as string
}
const me = (api: TestApi, token: string) => api.call("GET", "/api/v1/auth/me", { token })

describe("one's own sessions", () => {
  it("lists where one is signed in, which one is this, and never a token", async () => {
    const api = await startApi()
    const first = await memberWithPermissions(api, "ada", [1])
    const laptop = await loginFrom(api, "ada", "Firefox on a laptop", "198.51.100.7")
    const listed = await api.call("GET", sessions, { token: laptop })
    expect(listed.status, listed.text).toBe(200)
    expect(listed.body).toHaveLength(2)
    const [older, newer] = listed.body
    expect(older).toMatchObject({ current: false, address: "192.0.2.1", organizationId: "default" })
    expect(newer).toMatchObject({
      current: true,
      userAgent: "Firefox on a laptop",
      address: "198.51.100.7",
      organizationId: "default"
    })
    expect(Object.keys(newer).sort()).toEqual([
      "address",
      "createdAt",
      "current",
      "expiresAt",
      "id",
      "lastSeenAt",
      "organizationId",
      "userAgent"
    ])
    expect(newer.id).toMatch(/^ses_/)
    expect(listed.text).not.toContain(laptop)
    expect(listed.text).not.toContain(first.token)
    const fromFirst = await api.call("GET", sessions, { token: first.token })
    expect(fromFirst.body.map((s: { current: boolean }) => s.current)).toEqual([true, false])
  })

  it("ends another session of one's own, recorded, and the current one as logging out does", async () => {
    const api = await startApi()
    const first = await memberWithPermissions(api, "ada", [1])
    const phone = await loginFrom(api, "ada", "Safari on a phone", "203.0.113.4")
    const [, phoneSession] = (await api.call("GET", sessions, { token: first.token })).body
    const ended = await api.call("DELETE", `${sessions}/${phoneSession.id}`, { token: first.token })
    expect(ended.status, ended.text).toBe(200)
    expect(ended.body).toMatchObject({ id: phoneSession.id, current: false })
    expectProblem(await me(api, phone), 401, "unauthorized")
    expect((await api.call("GET", sessions, { token: first.token })).body).toHaveLength(1)
    expectProblem(
      await api.call("DELETE", `${sessions}/${phoneSession.id}`, { token: first.token }),
      404,
      "not_found"
    )
    const audit = await api.call("GET", "/api/v1/audit/events?action=session.revoked", { token: masterKey })
    expect(audit.body).toHaveLength(1)
    expect(audit.body[0]).toMatchObject({ target: { type: "session", id: phoneSession.id } })

    const [own] = (await api.call("GET", sessions, { token: first.token })).body
    const self = await api.call("DELETE", `${sessions}/${own.id}`, { token: first.token })
    expect(self.body.current).toBe(true)
    expectProblem(await me(api, first.token), 401, "unauthorized")
  })

  it("cannot see or end another account's session", async () => {
    const api = await startApi()
    const ada = await memberWithPermissions(api, "ada", [1])
    const bob = await memberWithPermissions(api, "bob", [1, 2, 3, 4, 5, 6, 7, 8, 9])
    const [bobs] = (await api.call("GET", sessions, { token: bob.token })).body
    const listed = await api.call("GET", sessions, { token: ada.token })
    expect(listed.body.map((s: { id: string }) => s.id)).not.toContain(bobs.id)
    expectProblem(await api.call("DELETE", `${sessions}/${bobs.id}`, { token: ada.token }), 404, "not_found")
    expect((await me(api, bob.token)).status).toBe(200)
  })

  it("is for people: the master key and an API key have no sessions", async () => {
    const api = await startApi()
    expectProblem(await api.call("GET", sessions, { token: masterKey }), 403, "forbidden")
    const key = await api.call("POST", "/api/v1/organization/api-keys", {
      token: masterKey,
      body: { name: "Machine", permissions: [1] }
    })
    expectProblem(await api.call("GET", sessions, { token: key.body.key }), 403, "forbidden")
    expectProblem(await api.call("DELETE", `${sessions}/ses_x`, { token: key.body.key }), 403, "forbidden")
    expectProblem(await api.call("GET", sessions), 401, "unauthorized")
  })

  it("shows none that ended with a password change, and the account's sessions in every organisation", async () => {
    const api = await startApi()
    const ada = await memberWithPermissions(api, "ada", [1])
    const other = await loginFrom(api, "ada", "old browser", "192.0.2.50")
    await api.call("POST", "/api/v1/organizations", {
      token: masterKey,
      body: { name: "Acme", slug: "acme" }
    })
    const acmeRole = await api.call("POST", "/api/v1/team/role/add", {
      token: masterKey,
      headers: { "roster-organization": "acme" },
      body: { name: "Staff", roleKey: "staff" }
    })
    const invited = await api.call("POST", "/api/v1/team/invitations", {
      token: masterKey,
      headers: { "roster-organization": "acme" },
      body: { email: "ada@example.com", roleId: acmeRole.body.id }
    })
    const joined = await api.call("POST", "/api/v1/invitations/accept", {
      body: { token: invited.body.token, password }
    })
    expect(joined.status, joined.text).toBe(200)
    const everywhere = (await api.call("GET", sessions, { token: ada.token })).body
    expect(everywhere.map((s: { organizationId: string }) => s.organizationId).sort()).toEqual(
      [joined.body.organization.id, "default", "default"].sort()
    )
    const changed = await api.call("POST", "/api/v1/auth/password", {
      token: ada.token,
      body: { currentPassword: password, newPassword: "a different passphrase" }
    })
    expect(changed.status, changed.text).toBe(200)
    expectProblem(await me(api, other), 401, "unauthorized")
    const left = (await api.call("GET", sessions, { token: ada.token })).body
    expect(left).toHaveLength(1)
    expect(left[0].current).toBe(true)
  })
})
