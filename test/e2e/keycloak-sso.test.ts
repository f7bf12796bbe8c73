import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, screenshot } from "../support/chromium.ts"
import { startDns, type TestDns } from "../support/dns-server.ts"
import { type RunningKeycloak, startKeycloak } from "../support/keycloak.ts"
import type { RunningServer } from "../support/server-process.ts"
import { acmeWithDomain, masterCalls, startRosterForSso } from "../support/sso-e2e.ts"

const masterKey = "keycloak-sso-master-key-long-enough-0123456789"
const clientSecret = "keycloak-client-secret-0123456789abcdef"
const people = {
  kim: { email: "kim@acme.example", password: "kim's long enough password" },
  lee: { email: "lee@acme.example", password: "lee's long enough password" }
}

let keycloak: RunningKeycloak
let server: RunningServer
let dns: TestDns
let browser: Browser
/** Roster as people reach it: `localhost`, another site than Keycloak's `127.0.0.1`. */
let rosterUrl: string

const api = masterCalls(() => server, masterKey)

/** Keycloak's realm `acme`: its two people, and Roster as an OpenID Connect client. */
const acmeRealm = () => ({
  realm: "acme",
  enabled: true,
  users: Object.entries(people).map(([username, person]) => ({
    username,
    email: person.email,
    emailVerified: true,
    firstName: username,
    lastName: "Acme",
    enabled: true,
    credentials: [{ type: "password", value: person.password, temporary: false }]
  })),
  clients: [
    {
      clientId: "roster",
      secret: clientSecret,
      publicClient: false,
      standardFlowEnabled: true,
      redirectUris: [`${rosterUrl}/api/v1/sso/oidc/callback`],
      protocol: "openid-connect"
    }
  ]
})

beforeAll(async () => {
  dns = await startDns()
  ;({ server, url: rosterUrl } = await startRosterForSso(dns, {
    masterKey,
    secretsKey: "keycloak-sso-secrets-key-long-enough-0123456789"
  }))
  keycloak = await startKeycloak()
  const realm = await keycloak.admin("POST", "/admin/realms", acmeRealm())
  expect(realm.status, await realm.text()).toBe(201)
  await acmeWithDomain(api, dns)
  browser = await launchChromium()
}, 300_000)
afterAll(async () => {
  await browser?.close()
  server?.kill()
  keycloak?.stop()
  await dns?.close()
})

/** Waits for `what`, else fails saying where the browser is and what the page says. */
const reached = (page: Page, what: ReturnType<Page["locator"]>, timeout: number) =>
  what.waitFor({ timeout }).catch(async (error: unknown) => {
    const text = (await page.locator("body").textContent())?.replace(/\s+/gu, " ").slice(0, 400)
    const warnings = keycloak
      .output()
      .split("\n")
      .filter((line) => /WARN|ERROR/u.test(line))
      .slice(-3)
    throw new Error(`${text} (at ${page.url().slice(0, 120)}); Keycloak: ${warnings.join(" | ")}`, {
      cause: error
    })
  })

/** The console's "Sign in with SSO" with a work e-mail, then Keycloak's own login form. */
const signInThroughKeycloak = async (page: Page, person: keyof typeof people) => {
  await page.goto(`${rosterUrl}/console/`)
  const sso = page.getByRole("form", { name: "Single sign-on" })
  await sso.getByLabel("Work e-mail").fill(people[person].email)
  await sso.getByRole("button", { name: "Sign in with SSO" }).click()
  await reached(page, page.locator("#username"), 15_000)
  await page.locator("#username").fill(person)
  await page.locator("#password").fill(people[person].password)
  await page.locator("#kc-login").click()
  await reached(page, page.getByRole("navigation", { name: "Console" }), 20_000)
  expect(await page.locator("header").textContent()).toContain(person)
}

/** The one connection that signs Acme's people in: any other is turned off. */
const onlyConnection = async (body: object) => {
  const listed = await api("GET", "/api/v1/organization/sso")
  for (const connection of listed.body)
    await api("PATCH", `/api/v1/organization/sso/${connection.id}`, { status: "disabled" })
  const made = await api("POST", "/api/v1/organization/sso", body)
  expect(made.status, JSON.stringify(made.body)).toBe(200)
  return made.body
}

describe("single sign-on with Keycloak 26 (its own distribution, npm start, the console in Chromium)", {
  timeout: 60_000
}, () => {
  it("signs a person in by OpenID Connect, made a member just in time", async () => {
    await onlyConnection({
      kind: "oidc",
      issuer: `${keycloak.url}/realms/acme`,
      clientId: "roster",
      clientSecret
    })
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      await signInThroughKeycloak(page, "kim")
      await screenshot(page, "signed-in-by-keycloak-oidc")
    } finally {
      await context.close()
    }
    const [member] = (await api("GET", "/api/v1/team/members?q=kim")).body
    expect(member).toMatchObject({ email: people.kim.email, emailVerified: true })
  })

  it("signs a person in by SAML 2.0, Roster imported into Keycloak from its metadata", async () => {
    const descriptor = await fetch(`${keycloak.url}/realms/acme/protocol/saml/descriptor`)
    const connection = await onlyConnection({ kind: "saml", idpMetadataXml: await descriptor.text() })
    // As an administrator does it: Clients → Import client, from the connection's metadata.
    const metadata = await (await fetch(connection.spMetadataUrl.replace(rosterUrl, server.url))).text()
    const converted = await keycloak.admin(
      "POST",
      "/admin/realms/acme/client-description-converter",
      metadata
    )
    expect(converted.status).toBe(200)
    const client = await converted.json()
    expect(client.clientId).toBe(connection.spEntityId)
    const made = await keycloak.admin("POST", "/admin/realms/acme/clients", {
      ...client,
      protocolMappers: [
        {
          name: "email",
          protocol: "saml",
          protocolMapper: "saml-user-property-mapper",
          config: { "user.attribute": "email", "attribute.name": "email", "attribute.nameformat": "Basic" }
        }
      ]
    })
    expect(made.status, await made.text()).toBe(201)
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      await signInThroughKeycloak(page, "lee")
      await screenshot(page, "signed-in-by-keycloak-saml")
    } finally {
      await context.close()
    }
    const logins = await api("GET", "/api/v1/audit/events?action=sso.login")
    expect(logins.body.map((entry: { actor: { id: string } }) => entry.actor.id)).toContain(connection.id)
  })
})
