import { expect } from "vitest"
import { type Answer, type Credentials, masterKey, password, type TestApi } from "./http.ts"

export const asMaster: Credentials = { token: masterKey }
export const inAcme: Credentials = { token: masterKey, headers: { "roster-organization": "acme" } }

// Roster's own: team.read, team.members.write, team.roles.write, team.permissions.write,
// organization.write, organization.api_keys.write.
export const [read, membersWrite, rolesWrite, permissionsWrite, organizationWrite, keysWrite] = [
  1, 2, 3, 4, 9, 10
]
/** What a member administering the team holds: every one of those but `organization.write`. */
export const administers = [read, membersWrite, rolesWrite, permissionsWrite, keysWrite]

/** Another organisation, Acme (`inAcme`), made by the operator; answers its Owner role's id. */
export const acme = async (api: TestApi) => {
  const made = await api.call("POST", "/api/v1/organizations", {
    ...asMaster,
    body: { name: "Acme", slug: "acme" }
  })
  expect(made.status, made.text).toBe(200)
  return made.body.ownerRoleId as number
}

/** Declares a product permission with the master key; answers its id. */
export const declare = async (api: TestApi, key: string, description = `May ${key}`) => {
  const declared = await api.call("PUT", `/api/v1/permissions/${encodeURIComponent(key)}`, {
    token: masterKey,
    body: { description }
  })
  expect(declared.status, declared.text).toBe(200)
  return declared.body.id as number
}

/** Retiring `key`: the answer, a 409 naming its holders while some explicit grant holds it. */
export const retire = (api: TestApi, key: string) =>
  api.call("DELETE", `/api/v1/permissions/${encodeURIComponent(key)}`, { token: masterKey })

/** `POST /team/role-permission-detail`: grants `permissionId` to `roleId` as `credentials`. */
export const grant = (api: TestApi, roleId: number, permissionId: number, credentials = asMaster) =>
  api.call("POST", "/api/v1/team/role-permission-detail", { ...credentials, body: { roleId, permissionId } })

/** A role holding `permissionIds`, made and granted with `credentials`; answers its id and record's. */
export const roleHolding = async (
  api: TestApi,
  roleKey: string,
  permissionIds: ReadonlyArray<number>,
  credentials = asMaster
) => {
  const role = await api.call("POST", "/api/v1/team/role/add", {
    ...credentials,
    body: { name: roleKey, roleKey }
  })
  expect(role.status, role.text).toBe(200)
  let recordId: number | undefined
  for (const permissionId of permissionIds) {
    const granted = await grant(api, role.body.id, permissionId, credentials)
    expect(granted.status, granted.text).toBe(200)
    recordId = granted.body.id
  }
  return { id: role.body.id as number, recordId: recordId ?? 0 }
}

/** The permissions a role lists now. */
export const permissionsOfRole = async (api: TestApi, roleId: number, credentials = asMaster) =>
  (await api.call("GET", `/api/v1/team/roles/${roleId}`, credentials)).body.permissionIds as Array<number>

/** A member of `roleId` added with `credentials`, signed in: the session's token and the member's id. */
export const signedInMember = async (
  api: TestApi,
  username: string,
  roleId: number,
  credentials = asMaster
) => {
  const added = await api.call("POST", "/api/v1/team/add", {
    ...credentials,
    body: { username, email: `${username}@example.com`, password, activestatus: true, roleId }
  })
  expect(added.status, added.text).toBe(200)
  const login = await api.call("POST", "/api/v1/auth/login", { body: { username, password } })
  expect(login.status, login.text).toBe(200)
  return { token: login.body.token as string, id: added.body.id as string }
}

/** What `/authorize` answers `token` about itself and `permission`, and whether `/auth/me` lists it. */
export const standing = async (api: TestApi, token: string, permission: string) => {
  const asked = await api.call("POST", "/api/v1/authorize", { token, body: { checks: [{ permission }] } })
  expect(asked.status, asked.text).toBe(200)
  const me = await api.call("GET", "/api/v1/auth/me", { token })
  return {
    reason: asked.body.results[0].reason as string,
    listed: (me.body.permissions as Array<string>).includes(permission)
  }
}

/**
 * The statuses of Roster's reads and writes called with `token`: a product permission alone opens
 * none of them (each 403).
 */
export const rosterStatuses = async (api: TestApi, token: string) => {
  const calls: ReadonlyArray<readonly [string, string, unknown?]> = [
    ["GET", "/api/v1/team/members"],
    ["GET", "/api/v1/team/roles"],
    ["GET", "/api/v1/team/permissions"],
    ["GET", "/api/v1/audit/events"],
    ["GET", "/api/v1/organization/api-keys"],
    ["POST", "/api/v1/team/role/add", { name: "Sneaky", roleKey: "sneaky" }]
  ]
  const answers: Array<Answer> = []
  for (const [method, path, body] of calls) answers.push(await api.call(method, path, { token, body }))
  return answers.map((answer) => answer.status)
}
