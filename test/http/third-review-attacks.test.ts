// What a third outside review did with an account in the service, played again over HTTP: each
// attack fails and changes nothing, on every store.
import { generateSync } from "otplib"
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
import { patchSchema } from "../support/scim.ts"

const secretsKeys = ["third-review-secrets-key-of-enough-length"]
const codeFor = (secret: string, offset = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 })
const newPassword = "a brand new passphrase"

const withMail = async () => {
  const box = mailbox()
  const api = await startApi({
    secretsKeys,
    accountMail: box.accountMail,
    invitationMail: box.invitationMail
  })
  return { api, box }
}

/** Ada with TOTP on: her session, the app's secret and her recovery codes. */
const adaWithTotp = async (api: TestApi) => {
  const ada = await memberWithPermissions(api, "ada", [1])
  const enrolled = await api.call("POST", "/api/v1/auth/mfa/totp", { token: ada.token, body: { password } })
  expect(enrolled.status, enrolled.text).toBe(200)
  const confirmed = await api.call("POST", "/api/v1/auth/mfa/totp/confirm", {
    token: ada.token,
    body: { code: codeFor(enrolled.body.secret) }
  })
  expect(confirmed.status, confirmed.text).toBe(200)
  return { ...ada, secret: enrolled.body.secret as string, recoveryCodes: confirmed.body.recoveryCodes }
}

const actionsOn = async (api: TestApi, memberId: string) =>
  (await api.call("GET", `/api/v1/audit/events?targetId=${memberId}`, { token: masterKey })).body.map(
    (entry: { action: string }) => entry.action
  )

describe("hole 1: TOTP swapped with the password alone", () => {
  it("is refused without a code of the active factor; with one, the swap waits for its confirmation and is audited", async () => {
    const api = await startApi({ secretsKeys })
    const ada = await adaWithTotp(api)
    const enrol = (body: Record<string, unknown>) =>
      api.call("POST", "/api/v1/auth/mfa/totp", { token: ada.token, body })
    expectProblem(await enrol({ password }), 401, "mfa_invalid")
    expectProblem(await enrol({ password, code: "000000" }), 401, "mfa_invalid")
    expectProblem(
      await api.call("POST", "/api/v1/auth/mfa/totp/confirm", { token: ada.token, body: { code: "123456" } }),
      404,
      "not_found"
    )
    const started = await enrol({ password, code: ada.recoveryCodes[0] })
    expect(started.status, started.text).toBe(200)
    expect((await api.call("GET", "/api/v1/auth/mfa", { token: ada.token })).body).toEqual({
      totp: true,
      recoveryCodesLeft: 9
    })
    const confirmed = await api.call("POST", "/api/v1/auth/mfa/totp/confirm", {
      token: ada.token,
      body: { code: codeFor(started.body.secret) }
    })
    expect(confirmed.status, confirmed.text).toBe(200)
    expect(await actionsOn(api, ada.member.id)).toContain("mfa.replaced")
  })
})

describe("hole 2: unlimited TOTP guesses through DELETE /auth/mfa/totp", () => {
  it("counts every wrong code on the login throttle: the sixth guess and the login from there are 429", async () => {
    const api = await startApi({ secretsKeys })
    const ada = await adaWithTotp(api)
    const statuses: Array<number> = []
    for (let guess = 0; guess < 12; guess++) {
      const answer = await api.call("DELETE", "/api/v1/auth/mfa/totp", {
        token: ada.token,
        body: { password, code: String(100000 + guess) }
      })
      statuses.push(answer.status)
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]))
    expectProblem(
      await api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password } }),
      429,
      "rate_limited"
    )
    expect((await api.call("GET", "/api/v1/auth/mfa", { token: ada.token })).body.totp).toBe(true)
    const elsewhere = await api.call("POST", "/api/v1/auth/login", {
      body: { username: "ada", password },
      client: "198.51.100.61"
    })
    expect(elsewhere.body.mfaRequired, elsewhere.text).toBe(true)
  })
})

describe("hole 3: a reset link that survives a password change", () => {
  const forgot = (api: TestApi) =>
    api.call("POST", "/api/v1/auth/password/forgot", { body: { email: "ada@example.com" } })
  const reset = (api: TestApi, token: string) =>
    api.call("POST", "/api/v1/auth/password/reset", { body: { token, newPassword } })

  it("ends when the person changes the password, when an administrator sets it, and when the account is disabled", async () => {
    const { api, box } = await withMail()
    const ada = await memberWithPermissions(api, "ada", [1])
    await forgot(api)
    const first = await box.tokenSent("ada@example.com", "password_reset", 1)
    const changed = await api.call("POST", "/api/v1/auth/password", {
      token: ada.token,
      body: { currentPassword: password, newPassword: "ada's own new passphrase" }
    })
    expect(changed.status, changed.text).toBe(200)
    expectProblem(await reset(api, first), 410, "token_invalid")

    await forgot(api)
    const second = await box.tokenSent("ada@example.com", "password_reset", 2)
    const set = await api.call("POST", `/api/v1/admin/members/${ada.member.id}/password`, {
      token: masterKey,
      body: { newPassword: "set by the administrator" }
    })
    expect(set.status, set.text).toBe(200)
    expectProblem(await reset(api, second), 410, "token_invalid")

    await forgot(api)
    const third = await box.tokenSent("ada@example.com", "password_reset", 3)
    const toggle = (accountActiveStatus: boolean) =>
      api.call("POST", "/api/v1/admin/toggle-account-status", {
        token: masterKey,
        body: { user_id: ada.member.id, accountActiveStatus }
      })
    expect((await toggle(false)).status).toBe(200)
    expectProblem(await reset(api, third), 410, "token_invalid")
    expect((await toggle(true)).status).toBe(200)
    expectProblem(await reset(api, third), 410, "token_invalid")
    const login = await api.call("POST", "/api/v1/auth/login", {
      body: { username: "ada", password: "set by the administrator" }
    })
    expect(login.status, "the password the administrator set stands").toBe(200)
  })
})

describe("hole 4: team.members.write takes over an account through its e-mail", () => {
  it("moves a colleague's address only with admin.accounts.write, telling the old address; never one's own", async () => {
    const { api, box } = await withMail()
    const bob = await memberWithPermissions(api, "bob", [1])
    const lead = await memberWithPermissions(api, "lead", [1, 2])
    const patch = (token: string, id: string, body: Record<string, unknown>) =>
      api.call("PATCH", `/api/v1/team/members/${id}`, { token, body })
    const refused = await patch(lead.token, bob.member.id, { email: "lead+bob@example.com" })
    expectProblem(refused, 403, "forbidden")
    expect(refused.body.permission).toBe("admin.accounts.write")
    const asked = await api.call("POST", "/api/v1/auth/password/forgot", {
      body: { email: "lead+bob@example.com" }
    })
    expect(asked.status).toBe(202)
    expect(box.sentTo("lead+bob@example.com", "password_reset")).toHaveLength(0)
    const bobNow = await api.call("GET", `/api/v1/team/members/${bob.member.id}`, { token: masterKey })
    expect(bobNow.body.email).toBe("bob@example.com")

    const admin = await memberWithPermissions(api, "admin", [1, 2, 7])
    expectProblem(await patch(admin.token, admin.member.id, { email: "me@new.example" }), 403, "forbidden")
    const moved = await patch(admin.token, bob.member.id, { email: "bob@new.example" })
    expect(moved.status, moved.text).toBe(200)
    expect(moved.body).toMatchObject({ email: "bob@new.example", emailVerified: false })
    expect(await box.toldAt("bob@example.com")).toEqual(["bob@new.example"])
    expect(await actionsOn(api, bob.member.id)).toContain("member.updated")
  })

  it("lets a member move their own address only through a link mailed to the new one", async () => {
    const { api, box } = await withMail()
    const ada = await memberWithPermissions(api, "ada", [1])
    const asked = await api.call("POST", "/api/v1/auth/email/change", {
      token: ada.token,
      body: { email: "ada@new.example", password }
    })
    expect(asked.status, asked.text).toBe(202)
    const token = await box.tokenSent("ada@new.example", "email_change")
    expect(token).toMatch(/^rse_/)
    const before = await api.call("GET", "/api/v1/auth/me", { token: ada.token })
    expect(before.body.member.email).toBe("ada@example.com")
    const verified = await api.call("POST", "/api/v1/auth/email/verify", { body: { token } })
    expect(verified.status, verified.text).toBe(200)
    expect(verified.body).toMatchObject({ email: "ada@new.example", emailVerified: true })
    expect(await box.toldAt("ada@example.com")).toEqual(["ada@new.example"])
    expectProblem(
      await api.call("POST", "/api/v1/auth/email/verify", { body: { token } }),
      410,
      "token_invalid"
    )
    expectProblem(
      await api.call("POST", "/api/v1/auth/email/change", {
        token: ada.token,
        body: { email: "ada@third.example", password: "not her password" }
      }),
      403,
      "wrong_password"
    )
  })

  it("holds through SCIM: a token whose maker lacks admin.accounts.write moves no address", async () => {
    const api = await startApi()
    const bob = await memberWithPermissions(api, "bob", [1])
    const tokenOf = async (username: string, permissionIds: ReadonlyArray<number>) => {
      const maker = await memberWithPermissions(api, username, permissionIds)
      const made = await api.call("POST", "/api/v1/organization/scim-tokens", {
        token: maker.token,
        body: { name: `IdP of ${username}` }
      })
      expect(made.status, made.text).toBe(200)
      return made.body.token as string
    }
    const moveBob = (token: string, email: string) =>
      api.call("PATCH", `/scim/v2/Users/${bob.member.id}`, {
        token,
        headers: { "content-type": "application/scim+json" },
        body: {
          schemas: [patchSchema],
          Operations: [{ op: "replace", path: 'emails[type eq "work"].value', value: email }]
        }
      })
    const bobsAddress = async () =>
      (await api.call("GET", `/api/v1/team/members/${bob.member.id}`, { token: masterKey })).body.email
    const refused = await moveBob(await tokenOf("provisioner", [1, 2, 9]), "idp@evil.example")
    expect(refused.status, refused.text).toBe(403)
    expect(await bobsAddress()).toBe("bob@example.com")
    const allowed = await moveBob(await tokenOf("accounts", [1, 2, 7, 9]), "bob@idp.example")
    expect(allowed.status, allowed.text).toBe(200)
    expect(await bobsAddress()).toBe("bob@idp.example")
  })
})

describe("an endpoint with `*` hears every event", () => {
  it("hears only what its creator may read: a named type they cannot is 403 naming its permission", async () => {
    const api = await startApi()
    const hooks = await memberWithPermissions(api, "hooks", [11])
    const create = (events: ReadonlyArray<string>) =>
      api.call("POST", "/api/v1/organization/webhooks", {
        token: hooks.token,
        body: { url: "https://hooks.example.com/roster", events }
      })
    const refused = await create(["member.updated"])
    expectProblem(refused, 403, "forbidden")
    expect(refused.body.permission).toBe("team.read")
    expect(
      (await api.call("GET", "/api/v1/organization/webhooks", { token: masterKey })).body,
      "nothing registered"
    ).toEqual([])
    const made = await create(["*"])
    expect(made.status, made.text).toBe(200)
    expect(made.body.effectiveEvents).toEqual(["webhook.test"])
    const types = await api.call("GET", "/api/v1/event-types", { token: masterKey })
    expect(types.body.find((type: { type: string }) => type.type === "member.updated").permission).toBe(
      "team.read"
    )
  })

  it("names ROSTER_WEBHOOK_ALLOW_PRIVATE when it refuses an http or a private address", async () => {
    const api = await startApi()
    for (const url of [
      "http://hooks.example.com/roster",
      "https://[::ffff:10.0.0.1]/",
      "https://[fec0::1]/"
    ]) {
      const refused = await api.call("POST", "/api/v1/organization/webhooks", {
        token: masterKey,
        body: { url, events: ["*"] }
      })
      expectProblem(refused, 400, "validation_failed")
      expect(refused.body.detail, url).toContain("ROSTER_WEBHOOK_ALLOW_PRIVATE")
    }
  })
})
