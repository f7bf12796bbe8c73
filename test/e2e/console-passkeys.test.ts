import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { addVirtualAuthenticator } from "../support/authenticator.ts"
import { launchChromium, screenshot, seriousViolations, watchComplaints } from "../support/chromium.ts"
import { type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"

const masterKey = "console-passkeys-master-key-long-enough-0123456789"
const password = "a long enough passphrase"

let server: RunningServer
let browser: Browser
/** The console as WebAuthn needs it: `http://localhost:PORT`, the RP ID `localhost` (the default). */
let consoleUrl: string

const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${masterKey}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json().catch(() => undefined) }
}

beforeAll(async () => {
  server = await startServer(scriptCommand("start"), { ROSTER_MASTER_KEY: masterKey })
  consoleUrl = `${server.url.replace("127.0.0.1", "localhost")}/console/`
  const role = await api("POST", "/api/v1/team/role/add", { name: "Readers", roleKey: "readers" })
  await api("POST", "/api/v1/team/role-permission-detail", { roleId: role.body.id, permissionId: 1 })
  const member = await api("POST", "/api/v1/team/add", {
    username: "pia",
    email: "pia@example.com",
    password,
    activestatus: true,
    roleId: role.body.id
  })
  expect(member.status).toBe(200)
  browser = await launchChromium()
}, 90_000)
afterAll(async () => {
  await browser?.close()
  server?.kill()
})

describe("passkeys in the console (npm start, browsed as localhost, Chromium's virtual authenticator)", () => {
  let context: BrowserContext
  let page: Page
  let complaints: Array<string>

  beforeAll(async () => {
    context = await browser.newContext()
    page = await context.newPage()
    page.setDefaultTimeout(10_000)
    complaints = watchComplaints(page)
    await addVirtualAuthenticator(page)
  })
  afterAll(() => context?.close())

  it("adds a passkey in My account with the password, then signs in with it alone", async () => {
    await page.goto(consoleUrl)
    const signIn = page.getByRole("form", { name: "Sign in" })
    await signIn.waitFor()
    await page.waitForLoadState("networkidle")
    // This deployment mails nothing (no ROSTER_SMTP_URL): no reset link is offered.
    expect(await page.getByRole("link", { name: "Forgot your password?" }).count()).toBe(0)
    await signIn.getByLabel("Username or e-mail").fill("pia")
    await signIn.getByLabel("Password", { exact: true }).fill(password)
    await signIn.getByRole("button", { name: "Sign in", exact: true }).click()
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "My account" }).click()
    await page.getByRole("heading", { level: 1, name: "My account" }).waitFor()
    await page.getByText("Your passkeys: none yet").waitFor()
    await page.waitForLoadState("networkidle")
    // Nor a confirmation link for pia's unconfirmed address: nothing would mail it.
    expect(await page.getByRole("button", { name: "Send me a confirmation link" }).count()).toBe(0)

    const add = page.getByRole("form", { name: "Add a passkey" })
    await add.getByLabel("Name (to tell it apart)").fill("This laptop")
    await add.getByLabel("Your password, to add it").fill(password)
    await add.getByRole("button", { name: "Add a passkey" }).click()
    await page.getByRole("row", { name: /This laptop/ }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "account-passkeys")

    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor()
    await page.getByRole("button", { name: "Sign in with a passkey" }).click()
    await page.getByRole("navigation", { name: "Console" }).waitFor()
    expect(await page.locator("header").textContent()).toContain("pia")
    const logins = await api("GET", "/api/v1/audit/events?action=auth.login")
    expect(logins.body[0]).toMatchObject({ method: "passkey" })
    expect(complaints).toEqual([])
  })

  it("asks an account whose only second factor is a passkey for that alone at the second step", async () => {
    await page.getByRole("button", { name: "Sign out" }).click()
    const signIn = page.getByRole("form", { name: "Sign in" })
    await signIn.getByLabel("Username or e-mail").fill("pia")
    await signIn.getByLabel("Password", { exact: true }).fill(password)
    await signIn.getByRole("button", { name: "Sign in", exact: true }).click()
    const step = page.getByRole("form", { name: "Second step" })
    await step.waitFor()
    expect(await step.textContent()).toContain("your passkey")
    // No TOTP was set up and no recovery code issued: neither is offered.
    expect(await step.getByLabel("Code from your authenticator app").count()).toBe(0)
    expect(await step.getByRole("button", { name: /recovery code/u }).count()).toBe(0)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "sign-in-second-step-passkey")
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "sign-in-second-step-passkey-390")
    await page.setViewportSize({ width: 1440, height: 900 })
    await step.getByRole("button", { name: "Use your passkey" }).click()
    await page.getByRole("navigation", { name: "Console" }).waitFor()
    expect(await page.locator("header").textContent()).toContain("pia")
    expect(complaints).toEqual([])
  })

  it("says where passkeys work when the console is browsed at 127.0.0.1, rather than letting the browser fail", async () => {
    const elsewhere = await browser.newContext()
    try {
      const at = await elsewhere.newPage()
      await at.goto(`${server.url}/console/`)
      await at.getByRole("form", { name: "Sign in" }).waitFor()
      const button = at.getByRole("button", { name: "Sign in with a passkey" })
      await expect.poll(() => button.isDisabled()).toBe(true)
      const { port } = new URL(server.url)
      await at
        .getByRole("note")
        .filter({ hasText: `Passkeys work at http://localhost:${port}` })
        .waitFor()
      expect(await seriousViolations(at)).toEqual([])
      await screenshot(at, "sign-in-passkey-elsewhere")
    } finally {
      await elsewhere.close()
    }
  })

  it("removes the passkey with the password, asked in a dialog; signing in with it then fails with the generic answer", async () => {
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "My account" }).click()
    await page.getByRole("button", { name: "Remove This laptop" }).click()
    const remove = page.getByRole("alertdialog", { name: "Remove the passkey This laptop?" })
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Cancel")
    await remove.getByLabel("Your password, to remove it").fill("not the password")
    await remove.getByRole("button", { name: "Remove the passkey" }).click()
    // A wrong password keeps the dialog open, saying so; nothing went.
    await remove.getByRole("alert").waitFor()
    await remove.getByLabel("Your password, to remove it").fill(password)
    await remove.getByRole("button", { name: "Remove the passkey" }).click()
    await page.getByText("Your passkeys: none yet").waitFor()
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("button", { name: "Sign in with a passkey" }).click()
    await page
      .getByRole("alert")
      .filter({ hasText: /username or password|credentials/i })
      .waitFor()
  })
})
