import { generateSync } from "otplib"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, openAuthenticator, startRelyingPartyPage } from "../support/authenticator.ts"
import { withClockAhead } from "../support/clock.ts"
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

const secretsKeys = ["passkey-proof-test-secrets-key-long-enough"]
const serviceFor = () =>
  startApi({ secretsKeys, passkeys: { rpId: "localhost", origins: [relyingParty.origin] } })

/** Runs `body` six minutes on: every session made before is old. */
const sixMinutesLater = <A>(body: () => Promise<A>) => withClockAhead(6 * 60_000, body)

const codeFor = (secret: string) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) })

/** Ada, signed in, with TOTP on: her session, the secret and her recovery codes. */
const adaWithTotp = async (api: TestApi) => {
  const ada = await memberWithPermissions(api, "ada", [])
  const enrolled = await api.call("POST", "/api/v1/auth/mfa/totp", { token: ada.token, body: { password } })
  const secret = enrolled.body.secret as string
  const confirmed = await api.call("POST", "/api/v1/auth/mfa/totp/confirm", {
    token: ada.token,
    body: { code: codeFor(secret) }
  })
  expect(confirmed.status, confirmed.text).toBe(200)
  return { ...ada, secret, recoveryCodes: confirmed.body.recoveryCodes as Array<string> }
}

const optionsFor = (api: TestApi, token: string, body: Record<string, unknown>) =>
  api.call("POST", "/api/v1/auth/passkeys/options", { token, body })

const passkeysOf = async (api: TestApi, token: string) =>
  (await api.call("GET", "/api/v1/auth/passkeys", { token })).body as Array<unknown>

describe("adding a passkey, in Chromium's virtual authenticator", () => {
  it("while the account has TOTP, asks a code besides the password: the password alone adds no passkey that walks around it", async () => {
    const api = await serviceFor()
    const ada = await adaWithTotp(api)
    const authenticator = await openAuthenticator(browser, relyingParty.origin)
    try {
      await sixMinutesLater(async () => {
        expectProblem(await optionsFor(api, ada.token, { password }), 401, "mfa_invalid")
        expectProblem(await optionsFor(api, ada.token, { password, code: "000000" }), 401, "mfa_invalid")
        expect(await passkeysOf(api, ada.token), "nothing added").toEqual([])
        expect(await authenticator.credentials(), "no credential made").toEqual([])
        const mfa = await api.call("GET", "/api/v1/auth/mfa", { token: ada.token })
        expect(mfa.body).toEqual({ totp: true, recoveryCodesLeft: 10 })

        const recovery = ada.recoveryCodes[0]
        const options = await optionsFor(api, ada.token, { password, code: recovery })
        expect(options.status, options.text).toBe(200)
        const added = await api.call("POST", "/api/v1/auth/passkeys", {
          token: ada.token,
          body: { name: "Laptop", response: await authenticator.create(options.body) }
        })
        expect(added.status, added.text).toBe(200)
        expectProblem(await optionsFor(api, ada.token, { password, code: recovery }), 401, "mfa_invalid")
        expect((await api.call("GET", "/api/v1/auth/mfa", { token: ada.token })).body).toEqual({
          totp: true,
          recoveryCodesLeft: 9
        })
      })
    } finally {
      await authenticator.page.close()
    }
  })

  it("without the password, only from a session a sign-in made in the last five minutes: an old one taken to an invitation stays old", async () => {
    const api = await serviceFor()
    await api.call("POST", "/api/v1/organizations", {
      token: masterKey,
      body: { name: "Acme", slug: "acme" }
    })
    const inAcme = { token: masterKey, headers: { "roster-organization": "acme" } }
    const owner = (await api.call("GET", "/api/v1/team/roles", inAcme)).body[0]
    const ada = await memberWithPermissions(api, "ada", [])
    const invited = await api.call("POST", "/api/v1/team/invitations", {
      ...inAcme,
      body: { email: "ada@example.com", roleId: owner.id }
    })
    expect(invited.status, invited.text).toBe(200)
    await sixMinutesLater(async () => {
      expectProblem(await optionsFor(api, ada.token, {}), 400, "validation_failed")
      const joined = await api.call("POST", "/api/v1/invitations/accept", {
        token: ada.token,
        body: { token: invited.body.token }
      })
      expect(joined.status, joined.text).toBe(200)
      expect(joined.body.organization.slug).toBe("acme")
      const refused = expectProblem(await optionsFor(api, joined.body.token, {}), 400, "validation_failed")
      expect(refused.errors).toEqual([{ path: "body.password", message: expect.any(String) }])
      expect(await passkeysOf(api, joined.body.token), "nothing added").toEqual([])

      // A sign-in, by contrast, makes a session that may.
      const signedIn = await api.call("POST", "/api/v1/auth/login", {
        body: { username: "ada", password, organization: "acme" }
      })
      expect(signedIn.status, signedIn.text).toBe(200)
      expect((await optionsFor(api, signedIn.body.token, {})).status).toBe(200)
    })
  })
})
