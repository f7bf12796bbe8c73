import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, screenshot } from "../support/chromium.ts"
import { startDns, type TestDns } from "../support/dns-server.ts"
import type { RunningServer } from "../support/server-process.ts"
import { type RunningSimpleSaml, startSimpleSaml } from "../support/simplesamlphp.ts"
import { acmeWithDomain, masterCalls, startRosterForSso } from "../support/sso-e2e.ts"

const masterKey = "simplesamlphp-master-key-long-enough-0123456789"
const sam = { uid: "sam", email: "sam@acme.example", password: "sam's long enough password" }

let idp: RunningSimpleSaml
let server: RunningServer
let dns: TestDns
let browser: Browser
/** Roster as people reach it: `localhost`, another site than the IdP's `127.0.0.1`. */
let rosterUrl: string

const api = masterCalls(() => server, masterKey)

beforeAll(async () => {
  dns = await startDns()
  idp = await startSimpleSaml([sam])
  ;({ server, url: rosterUrl } = await startRosterForSso(dns, {
    masterKey,
    secretsKey: "simplesamlphp-secrets-key-long-enough-0123456789"
  }))
  await acmeWithDomain(api, dns)
  browser = await launchChromium()
}, 90_000)
afterAll(async () => {
  await browser?.close()
  server?.kill()
  idp?.stop()
  await dns?.close()
})

describe("single sign-on with SimpleSAMLphp (Debian's package under php -S, npm start, the console in Chromium)", () => {
  it("signs a person in by SAML 2.0 from the IdP's metadata, made a member just in time", async () => {
    const metadata = await (await fetch(idp.metadataUrl)).text()
    const made = await api("POST", "/api/v1/organization/sso", { kind: "saml", idpMetadataXml: metadata })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    expect(made.body.idpEntityId).toBe(idp.metadataUrl)
    idp.trust({ entityId: made.body.spEntityId, acsUrl: made.body.acsUrl })
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      page.setDefaultTimeout(15_000)
      await page.goto(`${rosterUrl}/console/`)
      const sso = page.getByRole("form", { name: "Single sign-on" })
      await sso.getByLabel("Work e-mail").fill(sam.email)
      await sso.getByRole("button", { name: "Sign in with SSO" }).click()
      await page.locator("#username").fill(sam.uid)
      await page.locator("#password").fill(sam.password)
      await page.locator("#submit_button").click()
      await page.getByRole("navigation", { name: "Console" }).waitFor()
      expect(await page.locator("header").textContent()).toContain("sam")
      await screenshot(page, "signed-in-by-simplesamlphp")
    } finally {
      await context.close()
    }
    const [member] = (await api("GET", "/api/v1/team/members?q=sam")).body
    expect(member).toMatchObject({ email: sam.email, emailVerified: true })
    const logins = await api("GET", "/api/v1/audit/events?action=sso.login")
    expect(logins.body[0]).toMatchObject({ actor: { kind: "sso", id: made.body.id } })
  })
})
