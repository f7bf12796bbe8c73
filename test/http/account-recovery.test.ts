import { describe, expect, it } from "vitest"
import {
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"
import { mailbox } from "../support/mailbox.ts"

const newPassword = "a brand new passphrase"
const forgot = (api: TestApi, email: string, client?: string) =>
  api.call("POST", "/api/v1/auth/password/forgot", {
    body: { email },
    ...(client === undefined ? {} : { client })
  })
const reset = (api: TestApi, token: string, chosen = newPassword) =>
  api.call("POST", "/api/v1/auth/password/reset", { body: { token, newPassword: chosen } })
const login = (api: TestApi, username: string, secret: string) =>
  api.call("POST", "/api/v1/auth/login", { body: { username, password: secret } })
const auditOf = (api: TestApi, action: string) =>
  api.call("GET", `/api/v1/audit/events?action=${action}`, { token: masterKey })

const withMail = async (options: Parameters<typeof startApi>[0] = {}) => {
  const box = mailbox()
  const api = await startApi({ accountMail: box.accountMail, invitationMail: box.invitationMail, ...options })
  return { api, box }
}

describe("password reset by mail", () => {
  it("mails a link whose token sets the password once, ending every session of the account", async () => {
    const { api, box } = await withMail()
    const ada = await memberWithPermissions(api, "ada", [1])
    const other = await login(api, "ada", password)
    const asked = await forgot(api, "ADA@example.com")
    expect(asked.status, asked.text).toBe(202)
    const token = await box.tokenSent("ada@example.com", "password_reset")
    expect(token).toMatch(/^rsr_[A-Za-z0-9_-]{43}$/)

    const done = await reset(api, token)
    expect(done.status, done.text).toBe(200)
    for (const session of [ada.token, other.body.token]) {
      expect((await api.call("GET", "/api/v1/auth/me", { token: session })).status).toBe(401)
    }
    expectProblem(await login(api, "ada", password), 401, "unauthorized")
    expect((await login(api, "ada", newPassword)).status).toBe(200)
    expectProblem(await reset(api, token, "yet another passphrase"), 410, "token_invalid")
    expect((await login(api, "ada", newPassword)).status).toBe(200)

    const recorded = await auditOf(api, "password.reset")
    expect(recorded.body).toHaveLength(1)
    expect(recorded.body[0]).toMatchObject({ actor: { kind: "member", id: ada.member.id } })
    expect(JSON.stringify(recorded.body)).not.toContain(token)
  })

  it("answers an unknown address exactly as a known one, and mails nobody", async () => {
    const { api, box } = await withMail()
    await memberWithPermissions(api, "ada", [1])
    const known = await forgot(api, "ada@example.com")
    const unknown = await forgot(api, "nobody@example.com")
    expect(unknown.status).toBe(known.status)
    expect(unknown.body).toEqual(known.body)
    await box.tokenSent("ada@example.com", "password_reset")
    expect(box.sentTo("nobody@example.com", "password_reset")).toHaveLength(0)
  })

  it("refuses unknown, malformed, replaced and expired tokens with one answer, changing nothing", async () => {
    const { api, box } = await withMail()
    await memberWithPermissions(api, "ada", [1])
    await forgot(api, "ada@example.com")
    const first = await box.tokenSent("ada@example.com", "password_reset")
    await forgot(api, "ada@example.com")
    const second = await box.tokenSent("ada@example.com", "password_reset", 2)
    expect(second).not.toBe(first)
    for (const token of [first, "rsr_unknown", `${second}x`, second.replace("rsr_", "rsv_")]) {
      expectProblem(await reset(api, token), 410, "token_invalid")
    }
    expect((await login(api, "ada", password)).status).toBe(200)
    expect((await reset(api, second)).status).toBe(200)

    const { api: brief, box: briefBox } = await withMail({ resetTtl: "1 millis" })
    await memberWithPermissions(brief, "bob", [1])
    await forgot(brief, "bob@example.com")
    const stale = await briefBox.tokenSent("bob@example.com", "password_reset")
    await new Promise((resolve) => setTimeout(resolve, 5))
    expectProblem(await reset(brief, stale), 410, "token_invalid")
    expect((await login(brief, "bob", password)).status).toBe(200)
  })

  it("refuses a token sent to an address the account no longer has", async () => {
    const { api, box } = await withMail()
    const ada = await memberWithPermissions(api, "ada", [1])
    await forgot(api, "ada@example.com")
    const token = await box.tokenSent("ada@example.com", "password_reset")
    const moved = await api.call("PATCH", `/api/v1/team/members/${ada.member.id}`, {
      token: masterKey,
      body: { email: "ada@elsewhere.example" }
    })
    expect(moved.status, moved.text).toBe(200)
    expectProblem(await reset(api, token), 410, "token_invalid")
  })

  it("throttles per address and per client, known or not", async () => {
    const { api } = await withMail({ throttle: { maxMailsPerAddress: 2, maxMailsPerClient: 3 } })
    await memberWithPermissions(api, "ada", [1])
    for (const email of ["ada@example.com", "nobody@example.com"]) {
      expect((await forgot(api, email, "198.51.100.1")).status).toBe(202)
      expect((await forgot(api, email, "198.51.100.2")).status).toBe(202)
      const refused = expectProblem(await forgot(api, email, "198.51.100.3"), 429, "rate_limited")
      expect(refused).toBeDefined()
    }
    const fromOne = "203.0.113.9"
    for (const email of ["a@example.com", "b@example.com", "c@example.com"]) {
      expect((await forgot(api, email, fromOne)).status).toBe(202)
    }
    expectProblem(await forgot(api, "d@example.com", fromOne), 429, "rate_limited")
  })

  it("is off without mail, and says so", async () => {
    const api = await startApi()
    const off = expectProblem(await forgot(api, "ada@example.com"), 404, "not_found")
    expect(off.detail).toMatch(/no password reset mail/)
    expectProblem(await reset(api, "rsr_whatever"), 410, "token_invalid")
  })

  it("refuses a body that is not an address or a password that is too short", async () => {
    const { api, box } = await withMail()
    expectProblem(await forgot(api, "not an address"), 400, "validation_failed")
    await memberWithPermissions(api, "ada", [1])
    await forgot(api, "ada@example.com")
    const token = await box.tokenSent("ada@example.com", "password_reset")
    expectProblem(await reset(api, token, "short"), 400, "validation_failed")
    expect((await reset(api, token)).status).toBe(200)
  })
})

describe("e-mail verification", () => {
  const verify = (api: TestApi, token: string) =>
    api.call("POST", "/api/v1/auth/email/verify", { body: { token } })
  const requestLink = (api: TestApi, token: string) =>
    api.call("POST", "/api/v1/auth/email/verify-request", { token })

  it("mails the signed-in member a link that verifies the address, once, shown on the member", async () => {
    const { api, box } = await withMail()
    const ada = await memberWithPermissions(api, "ada", [1])
    expect(ada.member.emailVerified).toBe(false)
    const asked = await requestLink(api, ada.token)
    expect(asked.status, asked.text).toBe(202)
    const token = await box.tokenSent("ada@example.com", "email_verification")
    expect(token).toMatch(/^rsv_/)
    const verified = await verify(api, token)
    expect(verified.status, verified.text).toBe(200)
    expect(verified.body).toMatchObject({ id: ada.member.id, emailVerified: true })
    const read = await api.call("GET", `/api/v1/team/members/${ada.member.id}`, { token: masterKey })
    expect(read.body.emailVerified).toBe(true)
    expectProblem(await verify(api, token), 410, "token_invalid")
    const again = await requestLink(api, ada.token)
    expect(again.body.message).toMatch(/verified already/)
    expect(box.sentTo("ada@example.com", "email_verification")).toHaveLength(1)
    const recorded = await auditOf(api, "email.verified")
    expect(recorded.body).toHaveLength(1)
    expect(JSON.stringify(recorded.body)).not.toContain(token)
  })

  it("is undone by a change of address, and an old link does not verify the new one", async () => {
    const { api, box } = await withMail()
    const ada = await memberWithPermissions(api, "ada", [1])
    await requestLink(api, ada.token)
    const first = await box.tokenSent("ada@example.com", "email_verification")
    expect((await verify(api, first)).status).toBe(200)
    await requestLink(api, ada.token)
    const moved = await api.call("PATCH", `/api/v1/team/members/${ada.member.id}`, {
      token: masterKey,
      body: { email: "ada@elsewhere.example" }
    })
    expect(moved.body.emailVerified).toBe(false)
    const { token: session } = (await login(api, "ada", password)).body
    await requestLink(api, session)
    const stale = await box.tokenSent("ada@elsewhere.example", "email_verification")
    await api.call("PATCH", `/api/v1/team/members/${ada.member.id}`, {
      token: masterKey,
      body: { email: "ada@third.example" }
    })
    expectProblem(await verify(api, stale), 410, "token_invalid")
    const read = await api.call("GET", `/api/v1/team/members/${ada.member.id}`, { token: masterKey })
    expect(read.body).toMatchObject({ email: "ada@third.example", emailVerified: false })
  })

  it("is for people only, needs a session, and is off without mail", async () => {
    const { api } = await withMail()
    expectProblem(await requestLink(api, masterKey), 403, "forbidden")
    expectProblem(await api.call("POST", "/api/v1/auth/email/verify-request"), 401, "unauthorized")
    const key = await api.call("POST", "/api/v1/organization/api-keys", {
      token: masterKey,
      body: { name: "Machine", permissions: [1] }
    })
    expectProblem(await requestLink(api, key.body.key), 403, "forbidden")
    expectProblem(await verify(api, "rsv_unknown"), 410, "token_invalid")
    const without = await startApi()
    const ada = await memberWithPermissions(without, "ada", [1])
    expectProblem(await requestLink(without, ada.token), 404, "not_found")
  })

  it("tells, before sign-in, whether this deployment mails reset and confirmation links", async () => {
    const { api } = await withMail()
    const mailing = await api.call("GET", "/api/v1/auth/methods")
    expect(mailing.status).toBe(200)
    expect(mailing.body).toMatchObject({ passwordReset: true, emailVerification: true })
    const silent = await (await startApi()).call("GET", "/api/v1/auth/methods")
    expect(silent.body).toMatchObject({ passwordReset: false, emailVerification: false })
  })

  it("comes with an invitation accepted through its mailed link, for a new account or one that exists", async () => {
    const { api, box } = await withMail()
    const role = await api.call("POST", "/api/v1/team/role/add", {
      token: masterKey,
      body: { name: "Staff", roleKey: "staff" }
    })
    await api.call("POST", "/api/v1/team/invitations", {
      token: masterKey,
      body: { email: "grace@example.com", roleId: role.body.id }
    })
    const accepted = await api.call("POST", "/api/v1/invitations/accept", {
      body: { token: box.invitationTo("grace@example.com"), username: "grace", password }
    })
    expect(accepted.status, accepted.text).toBe(200)
    expect(accepted.body.member.emailVerified).toBe(true)

    const acme = await api.call("POST", "/api/v1/organizations", {
      token: masterKey,
      body: { name: "Acme", slug: "acme" }
    })
    const inAcme = { token: masterKey, headers: { "roster-organization": "acme" } }
    const ada = await memberWithPermissions(api, "ada", [1])
    await api.call("POST", "/api/v1/team/invitations", {
      ...inAcme,
      body: { email: "ada@example.com", roleId: acme.body.ownerRoleId }
    })
    const joined = await api.call("POST", "/api/v1/invitations/accept", {
      body: { token: box.invitationTo("ada@example.com"), password }
    })
    expect(joined.status, joined.text).toBe(200)
    expect(joined.body.member.emailVerified).toBe(true)
    const home = await api.call("GET", `/api/v1/team/members/${ada.member.id}`, { token: masterKey })
    expect(home.body.emailVerified).toBe(true)
  })

  it("does not come with an invitation whose token its creator was given", async () => {
    const api = await startApi()
    const role = await api.call("POST", "/api/v1/team/role/add", {
      token: masterKey,
      body: { name: "Staff", roleKey: "staff" }
    })
    const invited = await api.call("POST", "/api/v1/team/invitations", {
      token: masterKey,
      body: { email: "grace@example.com", roleId: role.body.id }
    })
    const accepted = await api.call("POST", "/api/v1/invitations/accept", {
      body: { token: invited.body.token, username: "grace", password }
    })
    expect(accepted.status, accepted.text).toBe(200)
    expect(accepted.body.member.emailVerified).toBe(false)
  })
})
