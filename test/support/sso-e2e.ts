import { expect } from "vitest"
import type { TestDns } from "./dns-server.ts"
import { freePort, scriptCommand, startServer } from "./server-process.ts"

/** A call to Roster as its master key, in the organisation `organization` names (none: no header). */
export type MasterCall = (
  method: string,
  path: string,
  body?: unknown,
  organization?: object
) => Promise<{ readonly status: number; readonly body: Awaited<ReturnType<Response["json"]>> }>

export const inAcme = { "roster-organization": "acme" }

/** Calls to the Roster at `server()` (known once it started) as `masterKey`, in Acme unless told. */
export const masterCalls =
  (server: () => { readonly url: string }, masterKey: string): MasterCall =>
  async (method, path, body, organization = inAcme) => {
    const response = await fetch(`${server().url}${path}`, {
      method,
      headers: { authorization: `Bearer ${masterKey}`, "content-type": "application/json", ...organization },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: await response.json().catch(() => undefined) }
  }

/** Acme: a default role holding `team.read`, and `acme.example` proven by its TXT record. */
export const acmeWithDomain = async (api: MasterCall, dns: TestDns) => {
  const created = await api("POST", "/api/v1/organizations", { name: "Acme", slug: "acme" }, {})
  expect(created.status).toBe(200)
  const role = await api("POST", "/api/v1/team/role/add", { name: "Member", roleKey: "member" }, inAcme)
  await api("POST", "/api/v1/team/role-permission-detail", { roleId: role.body.id, permissionId: 1 }, inAcme)
  expect((await api("PATCH", "/api/v1/organization", { defaultRoleId: role.body.id }, inAcme)).status).toBe(
    200
  )
  const domain = await api("POST", "/api/v1/organization/domains", { domain: "acme.example" }, inAcme)
  dns.records.set(domain.body.txtName, [domain.body.txtValue])
  const verified = await api("POST", `/api/v1/organization/domains/${domain.body.id}/verify`, {}, inAcme)
  expect(verified.status).toBe(200)
}

/**
 * Roster by `npm start` as people reach it: at `localhost`, another site than an IdP's
 * `127.0.0.1`, with that address as its public URL whichever address a call comes in at (SAML's
 * entity ID is made of it, and must be the one the IdP was given), proving domains through `dns`.
 */
export const startRosterForSso = async (dns: TestDns, keys: { masterKey: string; secretsKey: string }) => {
  const port = await freePort()
  const url = `http://localhost:${port}`
  const server = await startServer(scriptCommand("start"), {
    PORT: String(port),
    ROSTER_MASTER_KEY: keys.masterKey,
    ROSTER_SECRETS_KEY: keys.secretsKey,
    ROSTER_DNS_SERVERS: dns.server,
    ROSTER_PUBLIC_URL: url
  })
  return { server, url }
}
