import { expect } from "vitest"
import { createRosterClient } from "../../adapters/http/client.ts"
import type { TestSamlIdp } from "./saml-idp.ts"

/** What a test knows of the Roster it mounted: its master key, and an IdP to make a connection to. */
export interface Mounted {
  readonly masterKey: string
  readonly idp: TestSamlIdp
}

/**
 * What every mount must do under `/roster`: a JSON POST (whatever parsed it first), a list's `Link`
 * and the console's redirect keeping the prefix, the console and its assets, problems as problems
 * (a malformed body's too, as Roster answers it), and the Promise client given the prefix in its
 * base URL.
 */
export const expectServedUnder = async (
  base: string,
  { masterKey, idp }: Mounted,
  { malformedAnsweredBy = "roster" }: { readonly malformedAnsweredBy?: "roster" | "framework" } = {}
) => {
  const roster = `${base}/roster`
  const auth = { authorization: `Bearer ${masterKey}`, "content-type": "application/json" }
  if (malformedAnsweredBy === "roster") await expectMalformedAnsweredByRoster(roster, auth)
  const key = `k${Math.random().toString(36).slice(2, 10)}`
  const added = await fetch(`${roster}/api/v1/team/role/add`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ name: "Ops", roleKey: key })
  })
  expect(added.status, await added.clone().text()).toBe(200)
  expect((await added.json()).roleKey).toBe(key)
  await fetch(`${roster}/api/v1/team/role/add`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ name: "Ops 2", roleKey: `${key}-2` })
  })
  const page = await fetch(`${roster}/api/v1/team/roles?limit=1`, { headers: auth })
  expect(page.headers.get("link")).toMatch(/^<\/roster\/api\/v1\/team\/roles\?/u)
  const refused = await fetch(`${roster}/api/v1/team/roles`)
  expect(refused.status).toBe(401)
  expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/u)
  const toConsole = await fetch(`${roster}/console`, { redirect: "manual" })
  expect(toConsole.headers.get("location")).toBe("/roster/console/")
  const consolePage = await fetch(`${roster}/console/`)
  const html = await consolePage.text()
  const script = /src="(assets[^"]+)"/u.exec(html)?.[1]
  expect(script, `${consolePage.status}: ${html.slice(0, 300)}`).toBeDefined()
  const asset = await fetch(`${roster}/console/${script}`)
  expect(asset.status, `${script}: ${await asset.clone().text()}`).toBe(200)
  const client = createRosterClient({ baseUrl: roster, token: masterKey })
  expect((await client.team.listPermissions()).length).toBeGreaterThan(10)
  await expectAbsoluteLinksUnder(roster, auth, idp)
}

/**
 * The links Roster writes out whole keep the prefix too: the OpenAPI document's server and the
 * reference page's calls, a SAML connection's URLs and the sign-in's redirects and cookie, SCIM's
 * locations.
 */
const expectAbsoluteLinksUnder = async (roster: string, auth: Record<string, string>, idp: TestSamlIdp) => {
  const document = await (await fetch(`${roster}/api/v1/openapi.json`)).json()
  expect(document.servers).toEqual([{ url: "/roster", description: "This server" }])
  expect(await (await fetch(`${roster}/api/v1/docs`)).text()).toMatch(/"servers":\[\{"url":"\/roster"/u)
  const created = await fetch(`${roster}/api/v1/organization/sso`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({
      kind: "saml",
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      idpCertificate: idp.certificate
    })
  })
  const connection = await created.json()
  expect(created.status, JSON.stringify(connection)).toBe(200)
  expect(connection.acsUrl).toBe(`${roster}/api/v1/sso/saml/acs`)
  const start = await fetch(`${roster}/api/v1/sso/start?connection=${connection.id}`, { redirect: "manual" })
  expect(start.status).toBe(302)
  expect(idp.requestOf(start.headers.get("location") ?? "").xml).toContain(
    `AssertionConsumerServiceURL="${roster}/api/v1/sso/saml/acs"`
  )
  expect(start.headers.get("set-cookie")).toMatch(/; Path=\/roster\/api\/v1\/sso;/u)
  const unknown = await fetch(`${roster}/api/v1/sso/start?organization=nobody-here`, { redirect: "manual" })
  expect(unknown.headers.get("location")).toMatch(new RegExp(`^${roster}/console/\\?error=`, "u"))
  const token = await fetch(`${roster}/api/v1/organization/scim-tokens`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ name: "Directory" })
  })
  const scim = await fetch(`${roster}/scim/v2/ServiceProviderConfig`, {
    headers: { authorization: `Bearer ${(await token.json()).token}` }
  })
  expect((await scim.json()).meta.location).toBe(`${roster}/scim/v2/ServiceProviderConfig`)
}

/**
 * A body that is not JSON gets Roster's own 400, as problem details naming the body, whatever
 * parser the framework ran first: never the framework's page.
 */
const expectMalformedAnsweredByRoster = async (roster: string, auth: Record<string, string>) => {
  const malformed = await fetch(`${roster}/api/v1/team/role/add`, {
    method: "POST",
    headers: auth,
    body: '{"name": "Ops", "roleKey":'
  })
  const text = await malformed.text()
  expect(malformed.status, text).toBe(400)
  expect(malformed.headers.get("content-type"), text).toMatch(/^application\/problem\+json/u)
  const problem = JSON.parse(text)
  expect(problem).toMatchObject({ code: "validation_failed", status: 400 })
  expect(problem.errors.map((error: { path: string }) => error.path)).toContain("body")
}
