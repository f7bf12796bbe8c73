import { generateSync } from "otplib"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, screenshot, seriousViolations, watchComplaints } from "../support/chromium.ts"
import { atPhoneWidth, nav, wide } from "../support/console-pages.ts"
import { freePort, type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"
import { startSmtpSink } from "../support/smtp-sink.ts"

const masterKey = "console-e2e-master-key-long-enough-0123456789"
const password = "a long enough passphrase"

let smtp: Awaited<ReturnType<typeof startSmtpSink>>
let server: RunningServer
let browser: Browser

const api = async (method: string, path: string, body?: unknown, token = masterKey) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json().catch(() => undefined) }
}

beforeAll(async () => {
  smtp = await startSmtpSink()
  const port = await freePort()
  server = await startServer(scriptCommand("start"), {
    PORT: String(port),
    ROSTER_MASTER_KEY: masterKey,
    ROSTER_SMTP_URL: `smtp://roster:smtp-secret@127.0.0.1:${smtp.port}`,
    ROSTER_MAIL_FROM: "Roster <roster@example.com>",
    ROSTER_INVITE_URL: `http://127.0.0.1:${port}/console/#/accept?token={token}`,
    ROSTER_RESET_URL: `http://127.0.0.1:${port}/console/#/reset?token={token}`,
    ROSTER_VERIFY_URL: `http://127.0.0.1:${port}/console/#/verify?token={token}`,
    ROSTER_SECRETS_KEY: "console-e2e-secrets-key-long-enough-0123456789"
  })
  // The owner: a role holding the whole catalog, and a member in it, made with the master key.
  const owners = await api("POST", "/api/v1/team/role/add", { name: "Owners", roleKey: "owners" })
  for (const permission of (await api("GET", "/api/v1/team/permissions")).body) {
    await api("POST", "/api/v1/team/role-permission-detail", {
      roleId: owners.body.id,
      permissionId: permission.id
    })
  }
  const owner = await api("POST", "/api/v1/team/add", {
    username: "olive",
    email: "olive@example.com",
    password,
    activestatus: true,
    roleId: owners.body.id
  })
  expect(owner.status).toBe(200)
  browser = await launchChromium()
}, 90_000)
afterAll(async () => {
  await browser?.close()
  server?.kill()
  await smtp?.close()
})

/** Opens a page from the navigation, waits for its heading, checks it with axe-core at 1440 and 390 px. */
const visit = async (page: Page, name: string, shot: string) => {
  await nav(page, name)
  await page.getByRole("heading", { level: 1, name }).waitFor()
  await page.waitForLoadState("networkidle")
  expect(await seriousViolations(page), name).toEqual([])
  await screenshot(page, shot)
  await atPhoneWidth(page, shot)
}

/** Signs in by keyboard alone: Tab to the first field, type, Tab, type, Enter. */
const signInByKeyboard = async (page: Page, username: string) => {
  await page.goto(`${server.url}/console/`)
  await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor()
  // This deployment mails reset links (ROSTER_SMTP_URL): the sign-in offers one.
  await page.getByRole("link", { name: "Forgot your password?" }).waitFor()
  expect(await seriousViolations(page)).toEqual([])
  await screenshot(page, "sign-in")
  await atPhoneWidth(page, "sign-in")
  for (let presses = 0; presses < 10; presses++) {
    await page.keyboard.press("Tab")
    if (await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name === "username"))
      break
  }
  await page.keyboard.type(username)
  await page.keyboard.press("Tab")
  await page.keyboard.type(password)
  await page.keyboard.press("Enter")
  await page.getByRole("navigation", { name: "Console" }).waitFor()
}

describe("the console in Chromium (npm start, secure mode, mail to a real SMTP server)", () => {
  let context: BrowserContext
  let page: Page
  let complaints: Array<string>

  beforeAll(async () => {
    context = await browser.newContext({ viewport: wide })
    page = await context.newPage()
    // Well inside the test's own limit, so that a step that never comes names its locator.
    page.setDefaultTimeout(10_000)
    complaints = watchComplaints(page)
  })
  afterAll(() => context?.close())

  it("signs in by keyboard, into an HttpOnly, SameSite=Strict cookie the page cannot read", async () => {
    await signInByKeyboard(page, "olive")
    expect(await page.locator("header").textContent()).toContain("olive")
    const [cookie] = await context.cookies()
    expect(cookie).toMatchObject({
      name: "roster_session",
      httpOnly: true,
      sameSite: "Strict",
      secure: false,
      path: "/"
    })
    expect(await page.evaluate(() => document.cookie)).toBe("")
  })

  it("creates a role and grants it permissions", async () => {
    await visit(page, "Roles", "roles")
    const form = page.getByRole("form", { name: "Add a role" })
    await form.getByLabel("Name").fill("Support")
    await form.getByLabel("Key", { exact: true }).fill("support")
    await form.getByRole("button", { name: "Add the role" }).click()
    const editor = page.getByRole("region", { name: "Role Support" })
    await editor.waitFor()
    // Roster's own permissions in a group of their own; the product's group only once it has some.
    await editor.getByRole("group", { name: "Roster's permissions of Support" }).waitFor()
    expect(await editor.getByRole("group", { name: /^The product's permissions/ }).count()).toBe(0)
    await editor.getByLabel(/^team\.read: /).check()
    await page.getByRole("row", { name: /Support support yes 1/ }).waitFor()
    await editor.getByLabel(/^team\.members\.write: /).check()
    await page.getByRole("row", { name: /Support support yes 2/ }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "role-editor")
    await atPhoneWidth(page, "role-editor")
  })

  it("shows the ceiling's refusal when a member grants a permission they lack, and puts the box back", async () => {
    const granters = await api("POST", "/api/v1/team/role/add", { name: "Granters", roleKey: "granters" })
    for (const permissionId of [1, 4]) {
      await api("POST", "/api/v1/team/role-permission-detail", { roleId: granters.body.id, permissionId })
    }
    await api("POST", "/api/v1/team/add", {
      username: "gus",
      email: "gus@example.com",
      password,
      activestatus: true,
      roleId: granters.body.id
    })
    const theirs = await browser.newContext()
    const gus = await theirs.newPage()
    gus.setDefaultTimeout(10_000)
    await gus.goto(`${server.url}/console/`)
    const form = gus.getByRole("form", { name: "Sign in" })
    await form.getByLabel("Username or e-mail").fill("gus")
    await form.getByLabel("Password").fill(password)
    await form.getByRole("button", { name: "Sign in" }).click()
    await gus.getByRole("link", { name: "Roles", exact: true }).click()
    await gus.getByRole("button", { name: "Manage Support" }).click()
    const audit = gus.getByRole("region", { name: "Role Support" }).getByLabel(/^audit\.read: /)
    await audit.click()
    await gus.getByRole("alert").filter({ hasText: "cannot grant a permission they do not hold" }).waitFor()
    await expect.poll(() => audit.isChecked()).toBe(false)
    const support = (await api("GET", "/api/v1/team/roles")).body.find(
      (role: { name: string }) => role.name === "Support"
    )
    expect(support.permissionIds).toEqual([1, 2])
    await screenshot(gus, "role-editor-ceiling")
    await theirs.close()
  })

  it("adds a member, and shows the API's problem beside the field it names", async () => {
    await visit(page, "Members", "members")
    const form = page.getByRole("form", { name: "Add a member" })
    await form.getByLabel("Username").fill("grace")
    await form.getByLabel("E-mail").fill("not an address")
    await form.getByLabel("Password").fill(password)
    await form.getByLabel("Role").selectOption({ label: "Support" })
    // The browser's own check is skipped so that the API's answer is what the page shows.
    await form.evaluate((element) => element.setAttribute("novalidate", ""))
    await form.getByRole("button", { name: "Add the member" }).click()
    await expect.poll(() => form.getByLabel("E-mail").getAttribute("aria-invalid")).toBe("true")
    // The form's summary in plain words, before the fields; each field says what is wrong with it.
    const summary = form.getByRole("alert")
    expect(await summary.textContent()).toBe("Check the fields marked below.")
    expect(await form.locator("*").first().getAttribute("role")).toBe("alert")
    await screenshot(page, "member-add-problem")
    await form.getByLabel("E-mail").fill("grace@example.com")
    await form.getByRole("button", { name: "Add the member" }).click()
    await page.getByRole("row", { name: /grace grace@example\.com Support yes enabled/ }).waitFor()
    // Every member fits on the first page: no paging is offered.
    expect(await page.getByRole("navigation", { name: "Pages of the list" }).count()).toBe(0)
    await page.getByRole("button", { name: "Manage grace" }).click()
    const editor = page.getByRole("region", { name: "Member grace" })
    await editor.waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "member-editor")
    await atPhoneWidth(page, "member-editor")
    const reset = editor.getByRole("button", { name: "Reset two-step sign-in" })
    expect(await reset.count(), "grace has no TOTP to reset").toBe(0)
  })

  it("offers to reset a member's two-step sign-in once they have one, and clears it", async () => {
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "grace", password })
    })
    const { token } = await login.json()
    const enrolled = await api("POST", "/api/v1/auth/mfa/totp", { password }, token)
    const code = generateSync({ secret: enrolled.body.secret })
    expect((await api("POST", "/api/v1/auth/mfa/totp/confirm", { code }, token)).status).toBe(200)
    await page.reload()
    await visit(page, "Members", "members")
    await page.getByRole("button", { name: "Manage grace" }).click()
    const editor = page.getByRole("region", { name: "Member grace" })
    await editor.getByRole("button", { name: "Reset two-step sign-in" }).click()
    const asked = page.getByRole("alertdialog", { name: "Reset two-step sign-in of grace?" })
    await asked.getByRole("button", { name: "Reset two-step sign-in" }).click()
    await editor.getByRole("status").filter({ hasText: "Two-step sign-in reset." }).waitFor()
    expect((await api("GET", "/api/v1/auth/mfa", undefined, token)).body).toMatchObject({ totp: false })
    await expect.poll(() => editor.getByRole("button", { name: "Reset two-step sign-in" }).count()).toBe(0)
  })

  it("invites someone, who joins through the mailed link in a second browser", async () => {
    await visit(page, "Invitations", "invitations")
    const form = page.getByRole("form", { name: "Invite someone" })
    await form.getByLabel("E-mail").fill("linus@example.com")
    await form.getByLabel("Role").selectOption({ label: "Support" })
    await form.getByRole("button", { name: "Send the invitation" }).click()
    await page.getByRole("row", { name: /linus@example\.com Support pending/ }).waitFor()
    const mail = await smtp.nextMessage(1)
    expect(mail.to).toEqual(["linus@example.com"])
    const link = /(http:\/\/127\.0\.0\.1:\d+\/console\/#\/accept\?token=\S+)/u.exec(mail.text)?.[1]
    expect(link, mail.text).toBeDefined()

    const invited = await browser.newContext()
    const second = await invited.newPage()
    const theirComplaints = watchComplaints(second)
    await second.goto(link ?? "")
    await second.getByRole("heading", { level: 1, name: "Join an organisation" }).waitFor()
    expect(await seriousViolations(second)).toEqual([])
    await screenshot(second, "accept-invitation")
    await second.getByLabel("Username (new accounts)").fill("linus")
    await second.getByLabel("Password").fill(password)
    await second.getByRole("button", { name: "Join" }).click()
    await second.getByRole("navigation", { name: "Console" }).waitFor()
    expect(await second.locator("header").textContent()).toContain("linus")
    // Linus's role reads the team and changes members: keys, SCIM, the audit record or billing are not offered.
    const offered = await second
      .getByRole("navigation", { name: "Console" })
      .getByRole("link")
      .allInnerTexts()
    expect(offered).toEqual([
      "Members",
      "Roles",
      "Permissions",
      "Invitations",
      "Webhooks",
      "Organisation",
      "My account"
    ])
    await second.getByRole("link", { name: "Roles", exact: true }).click()
    await second.getByRole("button", { name: "Manage Support" }).click()
    const own = second.getByRole("region", { name: "Role Support" })
    await own.waitFor()
    // Offered nothing to change: neither the role nor its permissions, nor deleting it.
    expect(await own.getByRole("checkbox", { disabled: false }).count()).toBe(0)
    expect(await own.getByRole("button").count()).toBe(0)
    expect(theirComplaints).toEqual([])
    await invited.close()
    await page.reload()
    await page.getByRole("row", { name: /linus@example\.com Support accepted/ }).waitFor()
  })

  it("makes an API key, shown once, and revokes it after a dialog that names what follows; Escape and Cancel change nothing", async () => {
    await visit(page, "API keys", "api-keys")
    await page.getByText(/^API keys: none yet\. Make one above/u).waitFor()
    const form = page.getByRole("form", { name: "Make an API key" })
    await form.getByLabel("Name", { exact: true }).fill("ci")
    await form.getByLabel(/^team\.read: /).check()
    await form.getByRole("button", { name: "Make the key" }).click()
    const key = ((await page.locator("[data-secret]").textContent()) ?? "").trim()
    expect(key).toMatch(/^rk_/)
    expect((await api("GET", "/api/v1/auth/me", undefined, key)).status).toBe(200)
    await page.getByRole("row", { name: /^ci rk_/ }).waitFor()
    const revoke = page.getByRole("button", { name: "Revoke ci" })
    const asked = page.getByRole("alertdialog", { name: "Revoke the API key ci?" })
    const focused = () => page.evaluate(() => document.activeElement?.textContent)
    await revoke.click()
    await asked.waitFor()
    expect(await asked.textContent()).toMatch(/next request is refused/u)
    expect(await focused(), "Cancel is focused first").toBe("Cancel")
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "api-keys-revoke-dialog")
    await atPhoneWidth(page, "api-keys-revoke-dialog")
    await page.keyboard.press("Escape")
    await expect.poll(() => asked.isVisible()).toBe(false)
    expect((await api("GET", "/api/v1/auth/me", undefined, key)).status, "Escape changed nothing").toBe(200)
    await revoke.click()
    await asked.getByRole("button", { name: "Cancel" }).click()
    await expect.poll(() => asked.isVisible()).toBe(false)
    expect((await api("GET", "/api/v1/auth/me", undefined, key)).status, "Cancel changed nothing").toBe(200)
    await revoke.click()
    await asked.getByRole("button", { name: "Revoke the key" }).click()
    await expect.poll(async () => (await api("GET", "/api/v1/auth/me", undefined, key)).status).toBe(401)
  })

  it("shows each change in the audit record, naming who and what", async () => {
    // A login that fails: its target is olive's account, which the record names by her username.
    await fetch(`${server.url}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "olive", password: "not her password" })
    })
    await visit(page, "Audit record", "audit")
    const record = page.getByRole("table", { name: "Audit record" })
    for (const action of [
      "role.added",
      "permission.granted",
      "member.added",
      "invitation.created",
      "invitation.accepted",
      "api_key.created",
      "api_key.revoked"
    ]) {
      await record.getByRole("cell", { name: action, exact: true }).first().waitFor()
    }
    // Names, not ids: the key, the role, the person a failed login named; a creation as what it made.
    await record.getByRole("row", { name: /api_key\.revoked olive API key ci/u }).waitFor()
    await record.getByRole("row", { name: /role\.added olive role Support name: Support/u }).waitFor()
    await record.getByRole("row", { name: /login\.failed an unauthenticated caller olive/u }).waitFor()
    const text = (await record.textContent()) ?? ""
    expect(text).not.toMatch(/null →/u)
    expect(text).not.toMatch(/\b(?:login|api_key|role) [0-9a-f]{8}-/u)
    // No word is broken in two: each action fits on one line, at both widths.
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 })
      const broken = await record.locator("tbody tr td:nth-child(2)").evaluateAll((cells) =>
        cells
          .filter((cell) => {
            const range = document.createRange()
            range.selectNodeContents(cell)
            return new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top))).size > 1
          })
          .map((cell) => cell.textContent)
      )
      expect(broken, `at ${width} px`).toEqual([])
    }
    await page.setViewportSize(wide)
    await screenshot(page, "audit-named")
    const filter = page.getByRole("form", { name: "Filter the record" })
    await filter.getByLabel("Action").selectOption("api_key.revoked")
    await filter.getByRole("button", { name: "Apply" }).click()
    await expect.poll(() => record.getByRole("row").count()).toBe(2)
  })

  it("refuses a webhook endpoint on a private address, the reason beside its URL", async () => {
    await visit(page, "Webhooks", "webhooks")
    const form = page.getByRole("form", { name: "Register an endpoint" })
    await form.getByLabel("URL (https)").fill("https://127.0.0.1/hooks")
    // Every box has its label and what it means: `*` is all events, each type its description.
    await form.getByLabel(/^All events \(\*\) Every event/u).check()
    await form.getByLabel(/^member\.added A member/u).waitFor()
    await form.getByRole("button", { name: "Register" }).click()
    const url = form.getByLabel("URL (https)")
    await expect.poll(() => url.getAttribute("aria-invalid")).toBe("true")
    const message = await page.locator(`#${await url.getAttribute("aria-describedby")}`).textContent()
    expect(message).toMatch(/private|loopback|public/iu)
    expect((await api("GET", "/api/v1/organization/webhooks")).body).toEqual([])
  })

  it("opens an endpoint in place of the register form: its events listed once, the page short", async () => {
    const url = "https://hooks.example.com/roster"
    expect(
      (await api("POST", "/api/v1/organization/webhooks", { url, events: ["member.added"] })).status
    ).toBe(200)
    await page.reload()
    await page.getByRole("button", { name: `Manage ${url}` }).click()
    await page.getByRole("region", { name: `Endpoint ${url}` }).waitFor()
    expect(await page.getByRole("form", { name: "Register an endpoint" }).count()).toBe(0)
    expect(await page.getByLabel(/^All events \(\*\)/u).count(), "one list of events").toBe(1)
    await page.getByText(/none yet\. A change this endpoint hears, or a test event/u).waitFor()
    const height = await page.evaluate(() => document.documentElement.scrollHeight)
    expect(height, "the detail page was 2,400 px tall with the register form below it").toBeLessThan(1400)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "webhook-detail")
    await atPhoneWidth(page, "webhook-detail")
  })

  it("every other page passes axe-core; an empty list says what to do next", async () => {
    for (const [name, shot] of [
      ["SCIM tokens", "scim-tokens"],
      ["Billing", "billing"],
      ["Organisation", "organization"],
      ["Single sign-on", "sso"],
      ["My account", "my-account"]
    ] as const) {
      await visit(page, name, shot)
      if (name === "SCIM tokens") await page.getByText(/none yet\. Make one above/u).waitFor()
      // A price says what it buys: the shipped Team plan is charged monthly.
      if (name === "Billing") await page.getByRole("cell", { name: /^€19\.00 a month$/u }).waitFor()
    }
    await page.getByRole("button", { name: "Start" }).waitFor()
    // olive's address is not confirmed, and this deployment mails confirmation links.
    await page.getByRole("button", { name: "Send me a confirmation link" }).waitFor()
    // Sessions are shown by device, not by their raw User-Agent.
    await page
      .getByRole("cell", { name: /^Chrome on Linux/u })
      .first()
      .waitFor()
    expect(complaints).toEqual([])
  })

  it("proves a domain on the single sign-on page: its TXT record shown, removal confirmed by name", async () => {
    await visit(page, "Single sign-on", "sso")
    await page.getByText(/Domains: none yet/u).waitFor()
    const form = page.getByRole("form", { name: "Add a domain" })
    await form.getByLabel("Domain").fill("example.org")
    await form.getByRole("button", { name: "Add the domain" }).click()
    const row = page.getByRole("row", {
      name: /example\.org Waiting for DNS _roster-challenge\.example\.org/u
    })
    await row.waitFor()
    await screenshot(page, "sso-domain")
    await atPhoneWidth(page, "sso-domain")
    await row.getByRole("button", { name: "Remove example.org" }).click()
    await page
      .getByRole("alertdialog", { name: "Remove the domain example.org?" })
      .getByRole("button", { name: "Remove the domain" })
      .click()
    await page.getByText(/Domains: none yet/u).waitFor()
  })

  it("shows the SSO values to register with the provider before anything is saved", async () => {
    const connect = page.getByRole("form", { name: "Connect an identity provider" })
    const { port } = new URL(server.url)
    await connect.getByText(`http://127.0.0.1:${port}/api/v1/sso/oidc/callback`, { exact: true }).waitFor()
    await connect.getByLabel("Protocol").selectOption("saml")
    await connect.getByText(`http://127.0.0.1:${port}/api/v1/sso/saml/acs`, { exact: true }).waitFor()
    expect((await api("GET", "/api/v1/organization/sso")).body).toEqual([])
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "sso-to-register")
    await atPhoneWidth(page, "sso-to-register")
    await nav(page, "My account")
  })

  let totpKey = ""

  it("turns TOTP on from My account: the QR code's key, a first code, recovery codes", async () => {
    const enabled = async () => (await api("GET", "/api/v1/audit/events?action=mfa.enabled")).body.length
    const enabledBefore = await enabled()
    const start = page.getByRole("form", { name: "Turn TOTP on" })
    await start.getByLabel("Your password, to turn TOTP on").fill(password)
    await start.getByRole("button", { name: "Start" }).click()
    await page.getByRole("img", { name: "QR code of your TOTP key" }).waitFor()
    totpKey = ((await page.locator("[data-secret]").textContent()) ?? "").trim()
    expect(totpKey).toMatch(/^[A-Z2-7]{16,}$/u)
    const confirm = page.getByRole("form", { name: "Confirm TOTP" })
    await confirm.getByLabel("Code from your authenticator app").fill(generateSync({ secret: totpKey }))
    await confirm.getByRole("button", { name: "Turn on" }).click()
    await page.locator(".codes li").first().waitFor()
    expect(await page.locator(".codes li").count()).toBeGreaterThanOrEqual(8)
    expect(await enabled()).toBe(enabledBefore + 1)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "my-account-totp")
    await atPhoneWidth(page, "my-account-totp")
  })

  it("a cross-site request carrying the cookie is refused and changes nothing", async () => {
    const roles = async () => (await api("GET", "/api/v1/team/roles")).body.length as number
    const before = await roles()
    const [cookie] = await context.cookies()
    const forged = await fetch(`${server.url}/api/v1/team/role/add`, {
      method: "POST",
      headers: { cookie: `roster_session=${cookie?.value}`, origin: "https://evil.example" },
      body: JSON.stringify({ name: "Evil", roleKey: "evil" })
    })
    expect(forged.status).toBe(403)
    expect((await forged.json()).code).toBe("cross_site")
    // A page of another site in the same browser: its request goes out without the cookie.
    await context.route("http://evil.test/", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<script>fetch(${JSON.stringify(`${server.url}/api/v1/team/role/add`)}, { method: "POST", mode: "no-cors", credentials: "include", headers: { "content-type": "text/plain" }, body: JSON.stringify({ name: "Evil", roleKey: "evil2" }) }).finally(() => { document.title = "sent" })</script>`
      })
    )
    const evil = await context.newPage()
    await evil.goto("http://evil.test/")
    await expect.poll(() => evil.title()).toBe("sent")
    await evil.close()
    expect(await roles()).toBe(before)
  })

  it("signs out: the cookie is cleared and its session ended", async () => {
    const [cookie] = await context.cookies()
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor()
    expect(await context.cookies()).toEqual([])
    const stale = await fetch(`${server.url}/api/v1/auth/me`, {
      headers: { cookie: `roster_session=${cookie?.value}` }
    })
    expect(stale.status).toBe(401)
  })

  it("signs in again with the second step: a code from the authenticator", async () => {
    const form = page.getByRole("form", { name: "Sign in" })
    await form.getByLabel("Username or e-mail").fill("olive@example.com")
    await form.getByLabel("Password").fill(password)
    await form.getByRole("button", { name: "Sign in" }).click()
    const step = page.getByRole("form", { name: "Second step" })
    await step.waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "sign-in-second-step")
    await atPhoneWidth(page, "sign-in-second-step")
    // The next time step's code: the first was spent turning TOTP on, and a code counts once.
    const code = generateSync({ secret: totpKey, epoch: Math.floor(Date.now() / 1000) + 30 })
    await step.getByLabel("Code from your authenticator app").fill(code)
    await step.getByRole("button", { name: "Verify" }).click()
    await page.getByRole("navigation", { name: "Console" }).waitFor()
    expect(await page.locator("header").textContent()).toContain("olive")
    expect(complaints).toEqual([])
  })
})

describe("the console in open local mode", () => {
  it("opens without signing in, and says so on every page", async () => {
    const open = await startServer(scriptCommand("start"))
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      const complaints = watchComplaints(page)
      await page.goto(`${open.url}/`)
      await page.getByRole("heading", { level: 1, name: "Members" }).waitFor()
      for (const name of ["Members", "Roles", "Audit record", "Organisation"]) {
        await nav(page, name)
        await page.getByRole("heading", { level: 1, name }).waitFor()
        expect(await page.getByRole("note").textContent()).toMatch(/^Open local mode: no sign-in is needed/)
      }
      expect(await seriousViolations(page)).toEqual([])
      await screenshot(page, "open-local-mode")
      expect(complaints).toEqual([])
    } finally {
      await context.close()
      open.kill()
    }
  })
})
