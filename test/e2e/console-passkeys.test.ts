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
    await page.getByText("No passkeys yet").waitFor()
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

  it("removes the passkey with the password; signing in with it then fails with the generic answer", async () => {
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "My account" }).click()
    await page.getByRole("button", { name: "Remove This laptop" }).click()
    const remove = page.getByRole("form", { name: "Remove the passkey" })
    await remove.getByLabel("Your password, to remove it").fill(password)
    await remove.getByRole("button", { name: "Remove the passkey" }).click()
    await page.getByText("No passkeys yet").waitFor()
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("button", { name: "Sign in with a passkey" }).click()
    await page
      .getByRole("alert")
      .filter({ hasText: /username or password|credentials/i })
      .waitFor()
  })
})
