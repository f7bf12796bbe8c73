import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, screenshot, seriousViolations, watchComplaints } from "../support/chromium.ts"
import { startDns, type TestDns } from "../support/dns-server.ts"
import { startOidcIdp, type TestOidcIdp } from "../support/oidc-idp.ts"
import { freePort, type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"
import { acmeWithDomain, masterCalls } from "../support/sso-e2e.ts"
import { mongoUri } from "../support/stores.ts"

const masterKey = "console-sso-master-key-long-enough-0123456789"

let dns: TestDns
let browser: Browser

beforeAll(async () => {
  dns = await startDns()
  browser = await launchChromium()
}, 90_000)
afterAll(async () => {
  await browser?.close()
  await dns?.close()
})

/** The provider's own pages, as a person goes through them: the login form, then the consent. */
const throughTheProvider = async (page: Page, idp: TestOidcIdp, login: string) => {
  await page.waitForURL((url) => url.href.startsWith(idp.issuer))
  await page.locator('input[name="login"]').fill(login)
  await page.locator('input[name="password"]').fill("any password")
  await page.locator('button[type="submit"]').click()
  for (let step = 0; step < 3 && page.url().startsWith(idp.issuer); step++) {
    await page.locator('button[type="submit"]').click()
    await page.waitForLoadState()
  }
}

/** The round trip from the console on `store`: its settings for `npm start` (none: SQLite). */
const throughTheConsoleOn = (store: string, storeSettings: () => Record<string, string>) =>
  describe(`single sign-on from the console on ${store} (npm start, Chromium, an OpenID provider on loopback)`, () => {
    let server: RunningServer
    let idp: TestOidcIdp
    /** The console as people reach it: `localhost`, another site than the IdP's `127.0.0.1`. */
    let rosterUrl: string
    const api = masterCalls(() => server, masterKey)
    let context: BrowserContext
    let page: Page
    let complaints: Array<string>

    beforeAll(async () => {
      const port = await freePort()
      rosterUrl = `http://localhost:${port}`
      idp = await startOidcIdp(`${rosterUrl}/api/v1/sso/oidc/callback`)
      server = await startServer(scriptCommand("start"), {
        PORT: String(port),
        ROSTER_MASTER_KEY: masterKey,
        ROSTER_SECRETS_KEY: "console-sso-secrets-key-long-enough-0123456789",
        ROSTER_DNS_SERVERS: dns.server,
        ...storeSettings()
      })
      // Acme, its domain proven, and a connection to the OpenID provider.
      await acmeWithDomain(api, dns)
      const connection = await api("POST", "/api/v1/organization/sso", {
        kind: "oidc",
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret
      })
      expect(connection.status, JSON.stringify(connection.body)).toBe(200)
      context = await browser.newContext()
      // The provider's own pages import a web font from the internet, which this machine has none of.
      await context.route("https://fonts.googleapis.com/**", (route) =>
        route.fulfill({ status: 200, contentType: "text/css", body: "" })
      )
      page = await context.newPage()
      page.setDefaultTimeout(10_000)
      complaints = watchComplaints(page)
    }, 60_000)
    afterAll(async () => {
      await context?.close()
      server?.kill()
      await idp?.close()
    })

    it("signs a person of a verified domain in by their work e-mail, made a member just in time", async () => {
      idp.accounts.set("grace-sub", { email: "grace@acme.example" })
      await page.goto(`${rosterUrl}/console/`)
      const sso = page.getByRole("form", { name: "Single sign-on" })
      await sso.getByLabel("Work e-mail").fill("grace@acme.example")
      await sso.getByRole("button", { name: "Sign in with SSO" }).click()
      await throughTheProvider(page, idp, "grace-sub")
      await page.getByRole("navigation", { name: "Console" }).waitFor()
      expect(await page.locator("header").textContent()).toContain("grace")
      const [cookie] = await context.cookies(rosterUrl)
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict" })
      expect(await seriousViolations(page)).toEqual([])
      await screenshot(page, `signed-in-by-sso-${store.toLowerCase()}`)
      const logins = await api("GET", "/api/v1/audit/events?action=sso.login")
      expect(logins.body).toHaveLength(1)
      expect(complaints).toEqual([])
    })

    it("sends a person whose domain has no single sign-on back to the sign-in, saying so", async () => {
      await page.getByRole("button", { name: "Sign out" }).click()
      const sso = page.getByRole("form", { name: "Single sign-on" })
      await sso.getByLabel("Work e-mail").fill("someone@elsewhere.example")
      await sso.getByRole("button", { name: "Sign in with SSO" }).click()
      await page
        .getByRole("alert")
        .filter({ hasText: /has no single sign-on here/u })
        .waitFor()
      expect(await context.cookies(rosterUrl)).toEqual([])
      const members = await api("GET", "/api/v1/team/members?q=elsewhere")
      expect(members.body).toEqual([])
    })
  })

throughTheConsoleOn("SQLite", () => ({}))
throughTheConsoleOn("MongoDB", () => ({
  MONGODB_URI: mongoUri(),
  MONGODB_DB: `console_sso_${Math.random().toString(36).slice(2, 10)}`
}))
