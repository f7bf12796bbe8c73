import { expect } from "vitest"
import { browserSession, formOf, type Visited } from "./browser-session.ts"
import { startDns, type TestDns } from "./dns-server.ts"
import { type ApiOptions, masterKey, startApi, type TestApi } from "./http.ts"

/** Where the browser reaches Roster in these tests; answered in process. */
export const rosterBase = "http://localhost:4455"
/** A product's page a sign-in may return to with its code (`ROSTER_SSO_RETURN_URLS`). */
export const productPage = "https://app.example.com/sso/done"
export const inAcme = { token: masterKey, headers: { "roster-organization": "acme" } }

export interface SsoWorld {
  readonly api: TestApi
  readonly dns: TestDns
  /** A browser whose requests to Roster and to the product's page are answered in process. */
  readonly browser: () => ReturnType<typeof browserSession>
  /** The role members made just in time get. */
  readonly memberRoleId: number
  /** Acme's built-in owners' role. */
  readonly ownerRoleId: number
}

/**
 * Roster behind `rosterBase` with a secrets key, a DNS server on loopback, and the organisation
 * `acme` holding `acme.example` verified and a default role holding `team.read`.
 */
export const ssoWorld = async (options: ApiOptions = {}): Promise<SsoWorld> => {
  const dns = await startDns()
  const api = await startApi({
    publicOrigin: rosterBase,
    secretsKeys: ["sso tests' secrets key, long enough to seal"],
    sso: { servers: [dns.server], returnUrls: ["https://app.example.com/sso"] },
    ...options
  })
  const created = await api.call("POST", "/api/v1/organizations", {
    token: masterKey,
    body: { name: "Acme", slug: "acme" }
  })
  expect(created.status, created.text).toBe(200)
  const role = await api.call("POST", "/api/v1/team/role/add", {
    ...inAcme,
    body: { name: "Member", roleKey: "member" }
  })
  await api.call("POST", "/api/v1/team/role-permission-detail", {
    ...inAcme,
    body: { roleId: role.body.id, permissionId: 1 }
  })
  const set = await api.call("PATCH", "/api/v1/organization", {
    ...inAcme,
    body: { defaultRoleId: role.body.id }
  })
  expect(set.status, set.text).toBe(200)
  await verifiedDomain(api, dns, "acme.example")
  const product = async () => new Response("the product's page", { status: 200 })
  return {
    api,
    dns,
    memberRoleId: role.body.id,
    ownerRoleId: created.body.ownerRoleId,
    browser: () =>
      browserSession({
        [rosterBase]: (request) => api.web.handler(request, { remoteAddress: "198.51.100.7" }),
        "https://app.example.com": product
      })
  }
}

/** Claims `domain` for the organisation the credentials name and proves it by DNS. */
export const verifiedDomain = async (api: TestApi, dns: TestDns, domain: string, as = inAcme) => {
  const added = await api.call("POST", "/api/v1/organization/domains", { ...as, body: { domain } })
  expect(added.status, added.text).toBe(200)
  dns.records.set(added.body.txtName, [added.body.txtValue])
  const verified = await api.call("POST", `/api/v1/organization/domains/${added.body.id}/verify`, {
    ...as,
    body: {}
  })
  expect(verified.status, verified.text).toBe(200)
  return verified.body
}

/** The parameters of the URL a sign-in ended at. */
export const endedWith = (visited: Visited): { code?: string; error?: string } =>
  Object.fromEntries(new URL(visited.url).searchParams)

/** Drives an `oidc-provider` login and consent, as a person would, until the browser leaves it. */
export const signInAtOidc = async (
  browser: ReturnType<typeof browserSession>,
  started: Visited,
  issuer: string,
  login: string
): Promise<Visited> => {
  let page = started
  for (let step = 0; step < 4 && page.url.startsWith(issuer); step++) {
    const form = formOf(page.text, page.url)
    page = await browser.go(form.action, { form: { ...form.fields, login, password: "any password" } })
  }
  return page
}
