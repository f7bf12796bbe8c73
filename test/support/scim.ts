import { expect } from "vitest"
import { type Answer, addRole, masterKey, type TestApi } from "./http.ts"

export const userSchema = "urn:ietf:params:scim:schemas:core:2.0:User"
export const groupSchema = "urn:ietf:params:scim:schemas:core:2.0:Group"
export const patchSchema = "urn:ietf:params:scim:api:messages:2.0:PatchOp"

export interface Scim {
  readonly token: string
  readonly tokenId: string
  readonly readerRoleId: number
  readonly call: (
    method: string,
    path: string,
    options?: { readonly body?: unknown; readonly headers?: Record<string, string> }
  ) => Promise<Answer>
}

/**
 * A SCIM token of `organization` (the default one when absent), made by the operator, after a role
 * holding `team.read` alone: the default role of provisioned members.
 */
export const scimFor = async (api: TestApi, organization?: string): Promise<Scim> => {
  const credentials = {
    token: masterKey,
    headers: organization === undefined ? {} : { "roster-organization": organization }
  }
  const reader = await addRole(api, { name: "Reader", roleKey: "reader" }, credentials)
  expect(reader.status, reader.text).toBe(200)
  const grant = await api.call("POST", "/api/v1/team/role-permission-detail", {
    ...credentials,
    body: { roleId: reader.body.id, permissionId: 1 }
  })
  expect(grant.status, grant.text).toBe(200)
  const created = await api.call("POST", "/api/v1/organization/scim-tokens", {
    ...credentials,
    body: { name: "IdP" }
  })
  expect(created.status, created.text).toBe(200)
  const token = created.body.token as string
  return {
    token,
    tokenId: created.body.id,
    readerRoleId: reader.body.id,
    call: (method, path, { body, headers } = {}) =>
      api.call(method, `/scim/v2${path}`, {
        token,
        headers: { "content-type": "application/scim+json", ...headers },
        ...(body === undefined ? {} : { body })
      })
  }
}

/** A User as identity providers send one: its userName an e-mail address, the e-mail primary. */
export const userBody = (userName: string, more: Record<string, unknown> = {}) => ({
  schemas: [userSchema],
  userName,
  name: { givenName: "Given", familyName: "Family" },
  emails: [
    { value: userName.includes("@") ? userName : `${userName}@example.com`, type: "work", primary: true }
  ],
  active: true,
  ...more
})

export const patchOf = (...operations: ReadonlyArray<Record<string, unknown>>) => ({
  schemas: [patchSchema],
  Operations: operations
})

/** Asserts a SCIM error: the status (a string in the body too), the media type and the `scimType`, if any. */
export const expectScimError = (answer: Answer, status: number, scimType?: string) => {
  expect(answer.status, answer.text).toBe(status)
  expect(answer.headers.get("content-type")).toMatch(/^application\/scim\+json/)
  expect(answer.body).toMatchObject({
    schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"],
    status: String(status),
    ...(scimType === undefined ? {} : { scimType })
  })
  expect(answer.body.detail).toEqual(expect.any(String))
}

/** Creates a user and answers its resource. */
export const createUser = async (scim: Scim, userName: string, more: Record<string, unknown> = {}) => {
  const created = await scim.call("POST", "/Users", { body: userBody(userName, more) })
  expect(created.status, created.text).toBe(201)
  return created.body
}
