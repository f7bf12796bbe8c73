import { expect } from "vitest"
import type { TestDns } from "./dns-server.ts"

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
