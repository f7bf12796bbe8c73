import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createRosterClient } from "../../adapters/http/client.ts"
import {
  type Authenticator,
  launchChromium,
  openAuthenticator,
  startRelyingPartyPage
} from "../support/authenticator.ts"
import {
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"

let browser: Browser
let relyingParty: Awaited<ReturnType<typeof startRelyingPartyPage>>

beforeAll(async () => {
  relyingParty = await startRelyingPartyPage()
  browser = await launchChromium()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await relyingParty?.close()
})

const clientOf = (api: TestApi, token?: string) =>
  createRosterClient({
    baseUrl: "http://roster.test",
    ...(token === undefined ? {} : { token }),
    fetch: (input, init) => api.web.handler(new Request(input, init), { remoteAddress: "192.0.2.9" })
  })

const serviceFor = (origin: string) => startApi({ passkeys: { rpId: "localhost", origins: [origin] } })

/** Adds a passkey to the account behind `token` through the browser's authenticator. */
const addPasskey = async (api: TestApi, authenticator: Authenticator, token: string, name = "Laptop") => {
  const options = await api.call("POST", "/api/v1/auth/passkeys/options", { token, body: { password } })
  expect(options.status, options.text).toBe(200)
  const response = await authenticator.create(options.body)
  return api.call("POST", "/api/v1/auth/passkeys", { token, body: { name, response } })
}

/** Asks for sign-in options and lets the authenticator answer them (`tamper` changes the options first). */
const passkeyAnswer = async (
  api: TestApi,
  authenticator: Authenticator,
  tamper: (options: Record<string, unknown>) => Record<string, unknown> = (options) => options
) => {
  const asked = await api.call("POST", "/api/v1/auth/passkeys/login/options", { body: {} })
  expect(asked.status, asked.text).toBe(200)
  const response = await authenticator.get(tamper(asked.body.options))
  return { challengeId: asked.body.challengeId as string, response }
}

const signIn = (api: TestApi, answer: { challengeId: string; response: Record<string, unknown> }) =>
  api.call("POST", "/api/v1/auth/passkeys/login", { body: answer })

const auditOf = async (api: TestApi, action: string) =>
  (await api.call("GET", `/api/v1/audit/events?action=${action}`, { token: masterKey })).body as Array<
    Record<string, unknown>
  >

describe("passkeys, in Chromium's virtual authenticator", () => {
  it("adds a passkey with the password, lists it without a key, and signs in with it alone as two factors", async () => {
    const api = await serviceFor(relyingParty.origin)
    const ada = await memberWithPermissions(api, "ada", [])
    const authenticator = await openAuthenticator(browser, relyingParty.origin)
    const added = await addPasskey(api, authenticator, ada.token)
    expect(added.status, added.text).toBe(200)
    expect(Object.keys(added.body).sort()).toEqual([
      "backedUp",
      "createdAt",
      "id",
      "lastUsedAt",
      "name",
      "transports"
    ])
    expect(added.body).toMatchObject({ name: "Laptop", lastUsedAt: null, transports: ["internal"] })
    const listed = await api.call("GET", "/api/v1/auth/passkeys", { token: ada.token })
    expect(listed.body.map((passkey: { id: string }) => passkey.id)).toEqual([added.body.id])
    expect(listed.text).not.toMatch(/publicKey|counter/u)

    // The organisation requires a second factor: a passkey is two, so the session is whole.
    await api.call("PATCH", "/api/v1/organization", { token: masterKey, body: { requireMfa: true } })
    const signedIn = await signIn(api, await passkeyAnswer(api, authenticator))
    expect(signedIn.status, signedIn.text).toBe(200)
    expect(signedIn.body.member.id).toBe(ada.member.id)
    const sessions = await api.call("GET", "/api/v1/auth/sessions", { token: signedIn.body.token })
    expect(sessions.status, "no mfa_required").toBe(200)
    const logins = await auditOf(api, "auth.login")
    expect(logins[0]).toMatchObject({ method: "passkey", target: { type: "member", id: ada.member.id } })
    const after = await api.call("GET", "/api/v1/auth/passkeys", { token: ada.token })
    expect(after.body[0].lastUsedAt).not.toBeNull()

    // The Promise client has the same calls.
    const anonymous = clientOf(api)
    const asked = await anonymous.passkeys.passkeySignInOptions({})
    const session = await anonymous.passkeys.passkeySignIn({
      challengeId: asked.challengeId,
      response: await authenticator.get(asked.options)
    })
    expect(session.member.id).toBe(ada.member.id)
    const mine = await clientOf(api, session.token).passkeys.renamePasskey({
      id: added.body.id,
      name: "Desk"
    })
    expect(mine.name).toBe("Desk")
    await authenticator.page.close()
  })

  it("refuses a spent challenge, another challenge's answer, a changed user handle and no user verification, and signs nobody in", async () => {
    const api = await serviceFor(relyingParty.origin)
    const ada = await memberWithPermissions(api, "ada", [])
    const bob = await memberWithPermissions(api, "bob", [])
    const authenticator = await openAuthenticator(browser, relyingParty.origin)
    expect((await addPasskey(api, authenticator, ada.token)).status).toBe(200)

    const first = await passkeyAnswer(api, authenticator)
    expect((await signIn(api, first)).status).toBe(200)
    expectProblem(await signIn(api, first), 401, "unauthorized")

    const other = await api.call("POST", "/api/v1/auth/passkeys/login/options", { body: {} })
    const answerToOther = await passkeyAnswer(api, authenticator)
    expectProblem(
      await signIn(api, { challengeId: other.body.challengeId, response: answerToOther.response }),
      401,
      "unauthorized"
    )

    const handed = await passkeyAnswer(api, authenticator)
    const asBob = {
      ...handed.response,
      response: {
        ...(handed.response.response as object),
        userHandle: Buffer.from(bob.member.id).toString("base64url")
      }
    }
    expectProblem(
      await signIn(api, { challengeId: handed.challengeId, response: asBob }),
      401,
      "unauthorized"
    )

    await authenticator.cdp.send("WebAuthn.setUserVerified", {
      authenticatorId: authenticator.id,
      isUserVerified: false
    })
    const withoutVerification = await passkeyAnswer(api, authenticator, (options) => ({
      ...options,
      userVerification: "discouraged"
    }))
    expectProblem(await signIn(api, withoutVerification), 401, "unauthorized")

    const logins = await auditOf(api, "auth.login")
    expect(logins.filter((entry) => entry.method === "passkey")).toHaveLength(1)
    await authenticator.page.close()
  })

  it("suspends a credential whose counter went backwards (a clone), records it, and refuses it from then on", async () => {
    const api = await serviceFor(relyingParty.origin)
    const ada = await memberWithPermissions(api, "ada", [])
    const original = await openAuthenticator(browser, relyingParty.origin)
    expect((await addPasskey(api, original, ada.token)).status).toBe(200)
    expect((await signIn(api, await passkeyAnswer(api, original))).status).toBe(200)
    expect((await signIn(api, await passkeyAnswer(api, original))).status).toBe(200)

    const [credential] = await original.credentials()
    if (credential === undefined) expect.fail("the authenticator keeps the passkey")
    expect(credential.signCount).toBeGreaterThan(1)
    const clone = await openAuthenticator(browser, relyingParty.origin)
    await clone.addCredential({ ...credential, signCount: 0 })
    expectProblem(await signIn(api, await passkeyAnswer(api, clone)), 401, "unauthorized")
    const suspected = await auditOf(api, "passkey.clone_suspected")
    expect(suspected).toHaveLength(1)
    expect(suspected[0]).toMatchObject({ target: { type: "member", id: ada.member.id } })
    expectProblem(await signIn(api, await passkeyAnswer(api, original)), 401, "unauthorized")
    await original.page.close()
    await clone.page.close()
  })

  it("answers a login's challenge with a passkey, for an account with no TOTP", async () => {
    const api = await serviceFor(relyingParty.origin)
    const ada = await memberWithPermissions(api, "ada", [])
    const authenticator = await openAuthenticator(browser, relyingParty.origin)
    expect((await addPasskey(api, authenticator, ada.token)).status).toBe(200)
    const login = await api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password } })
    // Only what the account holds: no TOTP was set up, no recovery code issued.
    expect(login.body).toMatchObject({ mfaRequired: true, methods: ["passkey"] })
    const options = await api.call("POST", "/api/v1/auth/mfa/passkey/options", {
      body: { challenge: login.body.challenge }
    })
    expect(options.status, options.text).toBe(200)
    expect(options.body.allowCredentials).toHaveLength(1)
    const response = await authenticator.get(options.body)
    const verified = await api.call("POST", "/api/v1/auth/mfa/verify", {
      body: { challenge: login.body.challenge, passkey: response }
    })
    expect(verified.status, verified.text).toBe(200)
    expect(verified.body.member.id).toBe(ada.member.id)
    const again = await api.call("POST", "/api/v1/auth/mfa/verify", {
      body: { challenge: login.body.challenge, passkey: response }
    })
    expectProblem(again, 401, "mfa_invalid")
    expectProblem(
      await api.call("POST", "/api/v1/auth/mfa/passkey/options", {
        body: { challenge: "rsm_not-a-challenge" }
      }),
      401,
      "mfa_invalid"
    )
    await authenticator.page.close()
  })

  it("refuses an origin it does not allow, a malformed attestation and a disabled account; removing needs the password", async () => {
    const elsewhere = await serviceFor("http://localhost:1")
    const eve = await memberWithPermissions(elsewhere, "eve", [])
    const authenticator = await openAuthenticator(browser, relyingParty.origin)
    expectProblem(await addPasskey(elsewhere, authenticator, eve.token), 400, "validation_failed")
    expect((await elsewhere.call("GET", "/api/v1/auth/passkeys", { token: eve.token })).body).toEqual([])

    const api = await serviceFor(relyingParty.origin)
    const ada = await memberWithPermissions(api, "ada", [])
    const options = await api.call("POST", "/api/v1/auth/passkeys/options", {
      token: ada.token,
      body: { password }
    })
    const made = await authenticator.create(options.body)
    const malformed = { ...made, response: { ...(made.response as object), attestationObject: "AAAA" } }
    expectProblem(
      await api.call("POST", "/api/v1/auth/passkeys", {
        token: ada.token,
        body: { name: "Bad", response: malformed }
      }),
      400,
      "validation_failed"
    )
    const huge = { ...made, response: { ...(made.response as object), clientDataJSON: "A".repeat(70_000) } }
    expect(
      (
        await api.call("POST", "/api/v1/auth/passkeys", {
          token: ada.token,
          body: { name: "Huge", response: huge }
        })
      ).status
    ).toBe(400)
    expect((await api.call("GET", "/api/v1/auth/passkeys", { token: ada.token })).body).toEqual([])

    const added = await addPasskey(api, authenticator, ada.token)
    expect(added.status).toBe(200)
    const id = encodeURIComponent(added.body.id)
    expectProblem(
      await api.call("DELETE", `/api/v1/auth/passkeys/${id}`, {
        token: ada.token,
        body: { password: "not it at all" }
      }),
      403,
      "wrong_password"
    )
    const renamed = await api.call("PATCH", `/api/v1/auth/passkeys/${id}`, {
      token: ada.token,
      body: { name: "Work" }
    })
    expect(renamed.body.name).toBe("Work")

    const disabled = await api.call("POST", "/api/v1/admin/toggle-account-status", {
      token: masterKey,
      body: { user_id: ada.member.id, accountActiveStatus: false }
    })
    expect(disabled.status, disabled.text).toBe(200)
    expectProblem(await signIn(api, await passkeyAnswer(api, authenticator)), 401, "unauthorized")
    await authenticator.page.close()
  })

  it("reads /passkeys/login and /passkeys/options as themselves under any method, never as a passkey's id", async () => {
    const api = await serviceFor(relyingParty.origin)
    const ada = await memberWithPermissions(api, "ada", [])
    for (const path of ["/api/v1/auth/passkeys/login", "/api/v1/auth/passkeys/options"]) {
      const patched = await api.call("PATCH", path, { token: ada.token, body: { name: "x" } })
      expectProblem(patched, 405, "method_not_allowed")
      expect(patched.headers.get("allow")).toBe("POST")
    }
  })

  it("holds an account to twenty passkeys, refused at the options step", async () => {
    const api = await serviceFor(relyingParty.origin)
    const ada = await memberWithPermissions(api, "ada", [])
    const authenticator = await openAuthenticator(browser, relyingParty.origin)
    for (let n = 1; n <= 20; n++) {
      // A fresh authenticator credential each time: the account's own are excluded from a new one.
      await authenticator.cdp.send("WebAuthn.clearCredentials", { authenticatorId: authenticator.id })
      expect((await addPasskey(api, authenticator, ada.token, `Key ${n}`)).status).toBe(200)
    }
    expectProblem(
      await api.call("POST", "/api/v1/auth/passkeys/options", { token: ada.token, body: { password } }),
      409,
      "passkey_limit"
    )
    await authenticator.page.close()
  }, 60_000)

  it("names the origins it allows, and no more, when a passkey is used on a page of another: signing in and as the second step", async () => {
    const api = await serviceFor(relyingParty.origin)
    const methods = await api.call("GET", "/api/v1/auth/methods")
    expect(methods.body).toMatchObject({ passkeys: true, passkeyOrigins: [relyingParty.origin] })
    const ada = await memberWithPermissions(api, "ada", [])
    const own = await openAuthenticator(browser, relyingParty.origin)
    expect((await addPasskey(api, own, ada.token)).status).toBe(200)
    const [credential] = await own.credentials()
    if (credential === undefined) expect.fail("the authenticator keeps the passkey")
    // The same passkey (its RP ID is localhost's) used from another port of localhost: another origin.
    const otherPage = await startRelyingPartyPage()
    const elsewhere = await openAuthenticator(browser, otherPage.origin)
    await elsewhere.addCredential(credential)
    try {
      const refused = expectProblem(
        await signIn(api, await passkeyAnswer(api, elsewhere)),
        401,
        "unauthorized"
      )
      expect(refused.detail).toContain(relyingParty.origin)
      expect(refused.detail).not.toContain(otherPage.origin)
      expect(refused.detail).not.toMatch(/ada/u)
      const login = await api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password } })
      const options = await api.call("POST", "/api/v1/auth/mfa/passkey/options", {
        body: { challenge: login.body.challenge }
      })
      const second = await api.call("POST", "/api/v1/auth/mfa/verify", {
        body: { challenge: login.body.challenge, passkey: await elsewhere.get(options.body) }
      })
      expect(expectProblem(second, 401, "unauthorized").detail).toContain(relyingParty.origin)
      // Told before anything was counted: the passkey still signs in from its own origin.
      expect((await signIn(api, await passkeyAnswer(api, own))).status).toBe(200)
    } finally {
      await own.page.close()
      await elsewhere.page.close()
      await otherPage.close()
    }
  })

  it("with passkeys off, answers each of the five ceremonies 409 passkeys_unavailable before any other work", async () => {
    const api = await startApi({ passkeys: "off" })
    const methods = await api.call("GET", "/api/v1/auth/methods")
    expect(methods.body).toMatchObject({ passkeys: false, passkeyOrigins: [] })
    const ada = await memberWithPermissions(api, "ada", [])
    const asked = [
      // A wrong password is not even tried: nothing is counted against the account.
      ["/api/v1/auth/passkeys/options", { password: "not the password at all" }, ada.token],
      ["/api/v1/auth/passkeys", { name: "Laptop", response: { id: "x", type: "public-key" } }, ada.token],
      ["/api/v1/auth/passkeys/login/options", {}, undefined],
      ["/api/v1/auth/passkeys/login", { challengeId: "rsm_x", response: { id: "x" } }, undefined],
      ["/api/v1/auth/mfa/passkey/options", { challenge: "rsm_x" }, undefined]
    ] as const
    for (const [path, body, token] of asked) {
      const refused = expectProblem(
        await api.call("POST", path, { body, ...(token === undefined ? {} : { token }) }),
        409,
        "passkeys_unavailable"
      )
      expect(refused.detail, path).toMatch(/ROSTER_WEBAUTHN_RP_ID/u)
    }
    expect((await api.call("GET", "/api/v1/auth/passkeys", { token: ada.token })).body).toEqual([])
    const failures = await auditOf(api, "login.failed")
    expect(failures).toEqual([])
  })
})
