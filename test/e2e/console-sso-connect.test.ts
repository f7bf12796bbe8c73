import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, screenshot, seriousViolations, watchComplaints } from "../support/chromium.ts"
import { atPhoneWidth, nav, wide } from "../support/console-pages.ts"
import { startOidcIdp, type TestOidcIdp } from "../support/oidc-idp.ts"
import { samlIdp, type TestSamlIdp } from "../support/saml-idp.ts"
import { type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"

let server: RunningServer
let browser: Browser
let context: BrowserContext
let page: Page
let complaints: Array<string>
let saml: TestSamlIdp
let oidc: TestOidcIdp

/** Open local mode: the console needs no sign-in, nor the API a credential. */
const connections = async () =>
  (await (await fetch(`${server.url}/api/v1/organization/sso`)).json()) as Array<Record<string, string>>

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/** axe-core's `label-content-name-mismatch` (experimental, so not in its default run) on `target`. */
const nameMismatches = async (target: Page) => {
  if (!(await target.evaluate(() => "axe" in window))) await target.evaluate(axeSource)
  const result = (await target.evaluate(() =>
    (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<unknown> } }).axe.run(
      document,
      { runOnly: { type: "rule", values: ["label-content-name-mismatch"] } }
    )
  )) as { violations: ReadonlyArray<{ id: string }> }
  return result.violations.map(({ id }) => id)
}

const pasted = () => page.evaluate(() => navigator.clipboard.readText())
const connect = () => page.getByRole("form", { name: "Connect an identity provider" })

beforeAll(async () => {
  server = await startServer(scriptCommand("start"))
  saml = await samlIdp()
  oidc = await startOidcIdp(`${server.url}/api/v1/sso/oidc/callback`)
  browser = await launchChromium()
  context = await browser.newContext({ viewport: wide })
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url })
  page = await context.newPage()
  page.setDefaultTimeout(10_000)
  complaints = watchComplaints(page)
  await page.goto(`${server.url}/console/`)
  await nav(page, "Single sign-on")
  await page.getByRole("heading", { level: 1, name: "Single sign-on" }).waitFor()
}, 90_000)
afterAll(async () => {
  await context?.close()
  await browser?.close()
  server?.kill()
  await oidc?.close()
})

describe("connecting an identity provider from the console, in two steps (npm start, Chromium)", () => {
  it("SAML: step one makes a draft and shows its SP values to copy; step two takes the IdP's metadata", async () => {
    await connect().getByLabel("Protocol").selectOption("saml")
    await connect().getByRole("button", { name: "Copy ACS URL", exact: true }).waitFor()
    await connect().getByLabel("Name").fill("Okta")
    await connect().getByRole("button", { name: "Next: Roster's SAML values" }).click()
    await page.getByRole("button", { name: "Copy SP entity ID", exact: true }).waitFor()
    const [draft] = await connections()
    expect(draft).toMatchObject({ name: "Okta", status: "draft" })
    const values = {
      "SP entity ID": draft?.spEntityId,
      "ACS URL": draft?.acsUrl,
      "SP metadata URL": draft?.spMetadataUrl,
      "SP certificate": draft?.spCertificate
    }
    for (const [name, value] of Object.entries(values)) {
      await page.getByRole("button", { name: `Copy ${name}`, exact: true }).click()
      expect(await pasted(), name).toBe(value)
    }
    await page
      .getByText(draft?.spEntityId ?? "", { exact: true })
      .first()
      .waitFor()
    await page.getByRole("row", { name: /Okta SAML 2\.0 Waiting for its IdP's values/u }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    expect(await nameMismatches(page)).toEqual([])
    await screenshot(page, "sso-saml-draft")
    await atPhoneWidth(page, "sso-saml-draft")
    const step = page.getByRole("form", { name: "The identity provider's values" })
    await step.getByLabel("The provider's metadata (XML)").fill(saml.metadata)
    await step.getByRole("button", { name: "Connect" }).click()
    await page.getByRole("row", { name: /Okta SAML 2\.0 Signs people in/u }).waitFor()
    await connect().waitFor()
    expect((await connections())[0]).toMatchObject({ status: "enabled", idpEntityId: saml.entityId })
  })

  it("the name check can fail: a button whose aria-label leaves out its visible text is found", async () => {
    const other = await context.newPage()
    await other.setContent('<main><button aria-label="Copy">Copy ACS URL</button></main>')
    expect(await nameMismatches(other)).toEqual(["label-content-name-mismatch"])
    await other.close()
  })

  it("OIDC: step one shows the redirect URI to register and copy; step two takes the client", async () => {
    await connect().getByLabel("Protocol").selectOption("oidc")
    const redirectUri = `${server.url}/api/v1/sso/oidc/callback`
    await connect().getByText(redirectUri, { exact: true }).waitFor()
    await connect().getByRole("button", { name: "Copy redirect URI", exact: true }).click()
    expect(await pasted()).toBe(redirectUri)
    await connect().getByLabel("Name").fill("Keycloak")
    await connect().getByRole("button", { name: "Next: the provider's values" }).click()
    const step = page.getByRole("form", { name: "The OpenID provider's values" })
    await step.getByLabel("Issuer").fill(oidc.issuer)
    await step.getByLabel("Client ID").fill(oidc.clientId)
    await step.getByLabel("Client secret").fill(oidc.clientSecret)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "sso-oidc-step-two")
    await atPhoneWidth(page, "sso-oidc-step-two")
    await step.getByRole("button", { name: "Connect" }).click()
    await page.getByRole("row", { name: /Keycloak OpenID Connect Signs people in/u }).waitFor()
    expect((await connections()).map(({ kind, status }) => [kind, status])).toEqual([
      ["saml", "enabled"],
      ["oidc", "enabled"]
    ])
  })

  it("a draft left for later is finished from its row, by the IdP's entity ID, sign-in URL and certificate", async () => {
    await connect().getByLabel("Protocol").selectOption("saml")
    await connect().getByLabel("Name").fill("Entra")
    await connect().getByRole("button", { name: "Next: Roster's SAML values" }).click()
    await page.getByRole("button", { name: "Finish later" }).click()
    await page.getByRole("button", { name: "Finish setting up Entra" }).click()
    const draft = (await connections()).find(({ name }) => name === "Entra")
    await page
      .getByText(draft?.spEntityId ?? "", { exact: true })
      .first()
      .waitFor()
    const step = page.getByRole("form", { name: "The identity provider's values" })
    await step.getByLabel("Your provider gives").selectOption("hand")
    await step.getByLabel("IdP entity ID (issuer)").fill(saml.entityId)
    await step.getByLabel("IdP sign-in URL").fill(saml.ssoUrl)
    await step.getByLabel("IdP signing certificate (PEM)").fill(saml.certificate)
    expect(await seriousViolations(page)).toEqual([])
    await step.getByRole("button", { name: "Connect" }).click()
    await page.getByRole("row", { name: /Entra SAML 2\.0 Signs people in/u }).waitFor()
    expect((await connections()).find(({ name }) => name === "Entra")).toMatchObject({
      status: "enabled",
      idpSsoUrl: saml.ssoUrl
    })
    expect(complaints).toEqual([])
  })
})
