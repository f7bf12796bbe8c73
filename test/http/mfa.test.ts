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

const secretsKeys = ["mfa-test-secrets-key-of-enough-length-01"]
/** A code computed by otplib, not by the server's library, for the step `offset` steps from now. */
const codeFor = (secret: string, offset = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 })

const login = (api: TestApi, username = "ada", secret = password) =>
  api.call("POST", "/api/v1/auth/login", { body: { username, password: secret } })
const verify = (api: TestApi, body: Record<string, unknown>) =>
  api.call("POST", "/api/v1/auth/mfa/verify", { body })

/** Ada, signed in, with TOTP on: her session, the secret and her recovery codes. */
const adaWithTotp = async (api: TestApi) => {
  const ada = await memberWithPermissions(api, "ada", [1])
  const enrolled = await api.call("POST", "/api/v1/auth/mfa/totp", { token: ada.token, body: { password } })
  expect(enrolled.status, enrolled.text).toBe(200)
  const secret = enrolled.body.secret as string
  const confirmed = await api.call("POST", "/api/v1/auth/mfa/totp/confirm", {
    token: ada.token,
    body: { code: codeFor(secret) }
  })
  expect(confirmed.status, confirmed.text).toBe(200)
  return { ...ada, secret, recoveryCodes: confirmed.body.recoveryCodes as Array<string> }
}

describe("TOTP", () => {
  it("is enrolled with the password, confirmed with a code, and shows its codes once", async () => {
    const api = await startApi({ secretsKeys })
    const ada = await memberWithPermissions(api, "ada", [1])
    expectProblem(
      await api.call("POST", "/api/v1/auth/mfa/totp", {
        token: ada.token,
        body: { password: "wrong password" }
      }),
      403,
      "wrong_password"
    )
    const enrolled = await api.call("POST", "/api/v1/auth/mfa/totp", { token: ada.token, body: { password } })
    expect(enrolled.body.secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(enrolled.body.otpauthUri).toContain(`secret=${enrolled.body.secret}`)
    expect(enrolled.body.otpauthUri).toMatch(/^otpauth:\/\/totp\/Roster:ada%40example\.com\?/)
    expectProblem(
      await api.call("POST", "/api/v1/auth/mfa/totp/confirm", { token: ada.token, body: { code: "000000" } }),
      401,
      "mfa_invalid"
    )
    const status = await api.call("GET", "/api/v1/auth/mfa", { token: ada.token })
    expect(status.body).toEqual({ totp: false, recoveryCodesLeft: 0 })
    const confirmed = await api.call("POST", "/api/v1/auth/mfa/totp/confirm", {
      token: ada.token,
      body: { code: codeFor(enrolled.body.secret) }
    })
    expect(confirmed.body.recoveryCodes).toHaveLength(10)
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10)
    expect((await api.call("GET", "/api/v1/auth/mfa", { token: ada.token })).body).toEqual({
      totp: true,
      recoveryCodesLeft: 10
    })
    const audit = await api.call("GET", `/api/v1/audit/events?targetId=${ada.member.id}`, {
      token: masterKey
    })
    expect(audit.body.map((entry: { action: string }) => entry.action)).toContain("mfa.enabled")
    expect(audit.text).not.toContain(enrolled.body.secret)
    expect(audit.text).not.toContain(confirmed.body.recoveryCodes[0])
  })

  it("is refused where secrets cannot be kept encrypted, before the password is tried", async () => {
    const api = await startApi()
    const ada = await memberWithPermissions(api, "ada", [1])
    expectProblem(
      await api.call("POST", "/api/v1/auth/mfa/totp", { token: ada.token, body: { password } }),
      409,
      "secrets_key_required"
    )
    expectProblem(
      await api.call("POST", "/api/v1/auth/mfa/totp", { token: masterKey, body: { password } }),
      403,
      "forbidden"
    )
  })

  it("makes a login a challenge, completed by a code once and never by the same time step again", async () => {
    const api = await startApi({ secretsKeys })
    const ada = await adaWithTotp(api)
    const first = await login(api)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ mfaRequired: true, methods: ["totp", "recovery_code"] })
    expect(first.body).not.toHaveProperty("token")
    expect(first.body.challenge).toMatch(/^rsm_/)
    expectProblem(await verify(api, { challenge: first.body.challenge, code: "000000" }), 401, "mfa_invalid")
    const code = codeFor(ada.secret, 1)
    const session = await verify(api, { challenge: first.body.challenge, code })
    expect(session.status, session.text).toBe(200)
    expect((await api.call("GET", "/api/v1/auth/me", { token: session.body.token })).status).toBe(200)
    expectProblem(
      await verify(api, { challenge: first.body.challenge, code: codeFor(ada.secret, 1) }),
      401,
      "mfa_invalid"
    )
    const second = await login(api)
    expectProblem(await verify(api, { challenge: second.body.challenge, code }), 401, "mfa_invalid")
    expectProblem(await verify(api, { challenge: second.body.challenge }), 400, "validation_failed")
    expectProblem(
      await verify(api, { challenge: "rsm_unknown", code: codeFor(ada.secret) }),
      401,
      "mfa_invalid"
    )
  })

  it("takes a recovery code once, even when two use it at once, and counts what is left", async () => {
    const api = await startApi({ secretsKeys })
    const ada = await adaWithTotp(api)
    const [one, two] = [await login(api), await login(api)]
    // The second login replaced the first one's challenge.
    expectProblem(
      await verify(api, { challenge: one.body.challenge, recoveryCode: ada.recoveryCodes[0] }),
      401,
      "mfa_invalid"
    )
    const third = await login(api)
    const raced = await Promise.all([
      verify(api, { challenge: third.body.challenge, recoveryCode: ada.recoveryCodes[1] }),
      verify(api, { challenge: third.body.challenge, recoveryCode: ada.recoveryCodes[1] })
    ])
    expect(raced.map((answer) => answer.status).sort()).toEqual([200, 401])
    const fourth = await login(api)
    expectProblem(
      await verify(api, { challenge: fourth.body.challenge, recoveryCode: ada.recoveryCodes[1] }),
      401,
      "mfa_invalid"
    )
    const typedLoosely = ada.recoveryCodes[2]?.toUpperCase().replace("-", " ")
    expect((await verify(api, { challenge: fourth.body.challenge, recoveryCode: typedLoosely })).status).toBe(
      200
    )
    expect((await api.call("GET", "/api/v1/auth/mfa", { token: ada.token })).body.recoveryCodesLeft).toBe(8)
    void two
    const used = await api.call("GET", "/api/v1/audit/events?action=mfa.recovery_code_used", {
      token: masterKey
    })
    expect(used.body).toHaveLength(2)
  })

  it("spends a challenge after five wrong tries, and counts them on the login throttle across logins", async () => {
    const api = await startApi({ secretsKeys, throttle: { maxFailuresPerAccount: 6 } })
    const ada = await adaWithTotp(api)
    const { challenge } = (await login(api)).body
    for (let i = 0; i < 5; i++)
      expectProblem(await verify(api, { challenge, code: "000000" }), 401, "mfa_invalid")
    expectProblem(await verify(api, { challenge, code: codeFor(ada.secret) }), 401, "mfa_invalid")
    const next = (await login(api)).body.challenge
    expectProblem(await verify(api, { challenge: next, code: "000000" }), 401, "mfa_invalid")
    expectProblem(await verify(api, { challenge: next, code: "000000" }), 429, "rate_limited")
  })

  it("gives new recovery codes for the password and a code, and is turned off with the password and a code", async () => {
    const api = await startApi({ secretsKeys })
    const ada = await adaWithTotp(api)
    expectProblem(
      await api.call("POST", "/api/v1/auth/mfa/recovery-codes", { token: ada.token, body: { password } }),
      401,
      "mfa_invalid"
    )
    const renewed = await api.call("POST", "/api/v1/auth/mfa/recovery-codes", {
      token: ada.token,
      body: { password, code: ada.recoveryCodes[1] }
    })
    expect(renewed.body.recoveryCodes).toHaveLength(10)
    const challenge = (await login(api)).body.challenge
    expectProblem(await verify(api, { challenge, recoveryCode: ada.recoveryCodes[0] }), 401, "mfa_invalid")
    expectProblem(
      await api.call("DELETE", "/api/v1/auth/mfa/totp", {
        token: ada.token,
        body: { password, code: "000000" }
      }),
      401,
      "mfa_invalid"
    )
    const off = await api.call("DELETE", "/api/v1/auth/mfa/totp", {
      token: ada.token,
      body: { password, code: renewed.body.recoveryCodes[0] }
    })
    expect(off.status, off.text).toBe(200)
    expect((await login(api)).body).toHaveProperty("token")
    const actions = await api.call("GET", `/api/v1/audit/events?targetId=${ada.member.id}`, {
      token: masterKey
    })
    expect(actions.body.map((entry: { action: string }) => entry.action)).toEqual(
      expect.arrayContaining(["mfa.recovery_codes_regenerated", "mfa.disabled"])
    )
  })

  it("shows the secret and the codes once: an Idempotency-Key replay carries null", async () => {
    const api = await startApi({ secretsKeys })
    const ada = await memberWithPermissions(api, "ada", [1])
    const keyed = { token: ada.token, body: { password }, headers: { "idempotency-key": "enrol-1" } }
    const first = await api.call("POST", "/api/v1/auth/mfa/totp", keyed)
    const replay = await api.call("POST", "/api/v1/auth/mfa/totp", keyed)
    expect(first.body.secret).toEqual(expect.any(String))
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(replay.body).toEqual({ secret: null, otpauthUri: null })
  })

  it("is cleared by an administrator within the ceiling, never on oneself, recorded as mfa.reset", async () => {
    const api = await startApi({ secretsKeys })
    const ada = await adaWithTotp(api)
    const clerk = await memberWithPermissions(api, "clerk", [7])
    const reset = (token: string, id = ada.member.id) =>
      api.call("DELETE", `/api/v1/admin/members/${id}/mfa`, { token })
    const status = (token: string, id = ada.member.id) =>
      api.call("GET", `/api/v1/admin/members/${id}/mfa`, { token })
    expectProblem(await status(clerk.token), 403, "forbidden")
    expectProblem(await status(masterKey, "no-such-member"), 404, "not_found")
    expect((await status(masterKey)).body).toEqual({ totp: true })
    expect((await status(masterKey, clerk.member.id)).body).toEqual({ totp: false })
    expectProblem(await reset(clerk.token), 403, "forbidden")
    expectProblem(await reset(ada.token), 403, "forbidden")
    expectProblem(await reset(masterKey, "no-such-member"), 404, "not_found")
    expect((await login(api)).body).toHaveProperty("mfaRequired")
    const cleared = await reset(masterKey)
    expect(cleared.status, cleared.text).toBe(200)
    expect((await login(api)).body).toHaveProperty("token")
    expect((await status(masterKey)).body).toEqual({ totp: false })
    expectProblem(await reset(masterKey), 404, "not_found")
    const audit = await api.call("GET", "/api/v1/audit/events?action=mfa.reset", { token: masterKey })
    expect(audit.body).toHaveLength(1)
  })

  it("is no way around an invitation: accepting into an account with TOTP needs a code", async () => {
    const api = await startApi({ secretsKeys })
    const ada = await adaWithTotp(api)
    const acme = await api.call("POST", "/api/v1/organizations", {
      token: masterKey,
      body: { name: "Acme", slug: "acme" }
    })
    const invited = await api.call("POST", "/api/v1/team/invitations", {
      token: masterKey,
      headers: { "roster-organization": "acme" },
      body: { email: "ada@example.com", roleId: acme.body.ownerRoleId }
    })
    const accept = (more: Record<string, unknown>) =>
      api.call("POST", "/api/v1/invitations/accept", {
        body: { token: invited.body.token, password, ...more }
      })
    expectProblem(await accept({}), 400, "validation_failed")
    expectProblem(await accept({ code: "000000" }), 401, "mfa_invalid")
    expectProblem(await accept({ code: codeFor(ada.secret) }), 401, "mfa_invalid")
    const joined = await accept({ code: codeFor(ada.secret, 1) })
    expect(joined.status, joined.text).toBe(200)
    expect(joined.body.organization.slug).toBe("acme")
  })
})

describe("an organisation that requires a second factor", () => {
  const requireMfa = (api: TestApi, on: boolean) =>
    api.call("PATCH", "/api/v1/organization", { token: masterKey, body: { requireMfa: on } })

  it("lets members without TOTP only enrol, read who they are and sign out, at once and after", async () => {
    const api = await startApi({ secretsKeys })
    const ada = await memberWithPermissions(api, "ada", [1])
    const turnedOn = await requireMfa(api, true)
    expect(turnedOn.status, turnedOn.text).toBe(200)
    expect(turnedOn.body.requireMfa).toBe(true)
    expectProblem(await api.call("GET", "/api/v1/team/members", { token: ada.token }), 403, "mfa_required")
    expectProblem(await api.call("GET", "/api/v1/auth/sessions", { token: ada.token }), 403, "mfa_required")
    const me = await api.call("GET", "/api/v1/auth/me", { token: ada.token })
    expect(me.status).toBe(200)
    expect(me.body.permissions).toEqual([])
    const later = (await login(api)).body.token as string
    expectProblem(await api.call("GET", "/api/v1/team/members", { token: later }), 403, "mfa_required")
    const enrolled = await api.call("POST", "/api/v1/auth/mfa/totp", { token: ada.token, body: { password } })
    const confirmed = await api.call("POST", "/api/v1/auth/mfa/totp/confirm", {
      token: ada.token,
      body: { code: codeFor(enrolled.body.secret) }
    })
    expect(confirmed.status, confirmed.text).toBe(200)
    for (const token of [ada.token, later]) {
      expect((await api.call("GET", "/api/v1/team/members", { token })).status).toBe(200)
    }
    expect((await api.call("POST", "/api/v1/auth/logout", { token: later })).status).toBe(200)
    const audit = await api.call("GET", "/api/v1/audit/events?action=organization.updated", {
      token: masterKey
    })
    expect(audit.body[0].changes).toMatchObject({ requireMfa: [null, true] })
  })

  it("leaves members with TOTP be, puts a reset member back to enrolling, and lets go when turned off", async () => {
    const api = await startApi({ secretsKeys })
    const ada = await adaWithTotp(api)
    await requireMfa(api, true)
    expect((await api.call("GET", "/api/v1/team/members", { token: ada.token })).status).toBe(200)
    const reset = await api.call("DELETE", `/api/v1/admin/members/${ada.member.id}/mfa`, { token: masterKey })
    expect(reset.status, reset.text).toBe(200)
    expectProblem(await api.call("GET", "/api/v1/team/members", { token: ada.token }), 403, "mfa_required")
    await requireMfa(api, false)
    expect((await api.call("GET", "/api/v1/team/members", { token: ada.token })).status).toBe(200)
  })
})
