import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, screenshot, seriousViolations, watchComplaints } from "../support/chromium.ts"
import { atPhoneWidth, nav, wide } from "../support/console-pages.ts"
import { freePort, scriptCommand, startServer } from "../support/server-process.ts"

const masterKey = "console-unavailable-master-key-long-enough-0123456789"
const password = "a long enough passphrase"

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
}, 60_000)
afterAll(() => browser?.close())

describe("the console of a deployment that cannot do everything (no ROSTER_SECRETS_KEY, an IP as its public URL)", () => {
  it("shows TOTP, single sign-on and passkeys disabled, each with the one line the operator needs", async () => {
    const port = await freePort()
    const bare = await startServer(scriptCommand("start"), {
      PORT: String(port),
      ROSTER_MASTER_KEY: masterKey,
      ROSTER_PUBLIC_URL: `http://127.0.0.1:${port}`
    })
    const context = await browser.newContext({ viewport: wide })
    try {
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${bare.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${masterKey}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        }).then((response) => response.json())
      const owners = await call("POST", "/api/v1/team/role/add", { name: "Owners", roleKey: "owners" })
      for (const permission of await call("GET", "/api/v1/team/permissions"))
        await call("POST", "/api/v1/team/role-permission-detail", {
          roleId: owners.id,
          permissionId: permission.id
        })
      await call("POST", "/api/v1/team/add", {
        username: "oona",
        email: "oona@example.com",
        password,
        activestatus: true,
        roleId: owners.id
      })
      const page = await context.newPage()
      page.setDefaultTimeout(10_000)
      const complaints = watchComplaints(page)
      await page.goto(`${bare.url}/console/`)
      const signIn = page.getByRole("form", { name: "Sign in" })
      await signIn.waitFor()
      await page.waitForLoadState("networkidle")
      // Passkeys are off: the sign-in does not offer them.
      expect(await page.getByRole("button", { name: "Sign in with a passkey" }).count()).toBe(0)
      await signIn.getByLabel("Username or e-mail").fill("oona")
      await signIn.getByLabel("Password").fill(password)
      await signIn.getByRole("button", { name: "Sign in" }).click()
      await nav(page, "My account")
      await page.getByRole("heading", { level: 1, name: "My account" }).waitFor()
      const totp = page.getByRole("form", { name: "Turn TOTP on" })
      await totp.getByRole("note").filter({ hasText: "the operator must set ROSTER_SECRETS_KEY" }).waitFor()
      expect(await totp.getByRole("button", { name: "Start" }).isDisabled()).toBe(true)
      const passkeys = page.getByRole("form", { name: "Add a passkey" })
      await passkeys
        .getByRole("note")
        .filter({ hasText: "the operator must set ROSTER_WEBAUTHN_RP_ID" })
        .waitFor()
      expect(await passkeys.getByRole("button", { name: "Add a passkey" }).isDisabled()).toBe(true)
      expect(await seriousViolations(page)).toEqual([])
      await screenshot(page, "my-account-unavailable")
      await atPhoneWidth(page, "my-account-unavailable")
      await nav(page, "Single sign-on")
      const connect = page.getByRole("form", { name: "Connect an identity provider" })
      await connect
        .getByRole("note")
        .filter({ hasText: "the operator must set ROSTER_SECRETS_KEY" })
        .waitFor()
      expect(await connect.getByRole("button", { name: "Next: the provider's values" }).isDisabled()).toBe(
        true
      )
      expect(await seriousViolations(page)).toEqual([])
      await screenshot(page, "sso-unavailable")
      await atPhoneWidth(page, "sso-unavailable")
      expect(complaints).toEqual([])
    } finally {
      await context.close()
      bare.kill()
    }
  })
})
