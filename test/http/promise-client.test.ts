import { describe, expect, it } from "vitest"
import { createRosterClient, RosterProblem } from "../../adapters/http/client.ts"
import { masterKey, memberWithPermissions, password, startApi, type TestApi } from "../support/http.ts"
import { mailbox } from "../support/mailbox.ts"

/** The Promise client, its requests answered by the service's web handler as a server would. */
const clientOf = (api: TestApi, token?: string) =>
  createRosterClient({
    baseUrl: "http://roster.test",
    ...(token === undefined ? {} : { token }),
    fetch: (input, init) => api.web.handler(new Request(input, init), { remoteAddress: "192.0.2.9" })
  })

/** A login's answer that is a session (the account has no TOTP); a challenge fails the test. */
const sessionOf = <A extends object>(answer: A) =>
  "token" in answer
    ? (answer as Extract<A, { readonly token: string }>)
    : expect.fail("expected a session, got an MFA challenge")

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("resolved"),
    (error: unknown) => error
  )

describe("the Promise client", () => {
  it("makes, lists and revokes SCIM tokens; the token it answers once opens /scim/v2", async () => {
    const api = await startApi()
    const roster = clientOf(api, masterKey)
    const created = await roster.organizations.createScimToken({ name: "Okta" })
    const token = created.token ?? expect.fail("the token is shown on creation")
    expect(token.length).toBeGreaterThanOrEqual(43)
    expect(await roster.organizations.listScimTokens()).toEqual([
      { id: created.id, name: "Okta", permissionIds: created.permissionIds, createdAt: created.createdAt }
    ])
    const scim = await api.call("GET", "/scim/v2/Users", { token })
    expect(scim.status).toBe(200)
    expect(await roster.organizations.revokeScimToken({ id: created.id })).toMatchObject({ id: created.id })
    expect(await roster.organizations.listScimTokens()).toEqual([])
    expect((await api.call("GET", "/scim/v2/Users", { token })).status).toBe(401)
  })

  it("makes an API key that then calls as itself, pages keys, rotates and revokes them", async () => {
    const api = await startApi()
    const roster = clientOf(api, masterKey)
    const created = await roster.apiKeys.createApiKey({ name: "Sync", permissions: ["team.read", 10] })
    const key = created.key ?? expect.fail("the key is shown on creation")
    const asKey = clientOf(api, key)
    expect(await asKey.auth.me()).toMatchObject({
      principal: { kind: "api_key", id: created.id, name: "Sync" }
    })
    expect((await asKey.team.listMembers().firstPage()).items).toEqual([])
    const other = await asKey.apiKeys.createApiKey({ name: "Reader", permissions: [1] })
    const first = await roster.apiKeys.listApiKeys({ limit: 1 }).firstPage()
    expect(first.items.map((found) => found.id)).toEqual([created.id])
    const next = first.next ?? expect.fail("a second page")
    const second = await roster.apiKeys.listApiKeys({ limit: 1, cursor: next }).firstPage()
    expect(second.items.map((found) => found.id)).toEqual([other.id])
    const every = []
    for await (const found of roster.apiKeys.listApiKeys({ limit: 1 })) every.push(found.name)
    expect(every).toEqual(["Sync", "Reader"])
    const refused = await rejection(asKey.apiKeys.revokeApiKey({ id: created.id }))
    expect(refused).toMatchObject({ status: 403, code: "forbidden" })
    const rotated = await roster.apiKeys.rotateApiKey({ id: created.id, graceSeconds: 0 })
    expect(rotated.key).not.toBe(key)
    expect(await rejection(asKey.auth.me())).toMatchObject({ status: 401 })
    expect(await roster.apiKeys.revokeApiKey({ id: other.id })).toMatchObject({
      id: other.id,
      name: "Reader"
    })
  })

  it("asks for a reset and a verification link, and follows each as the mail's reader would", async () => {
    const box = mailbox()
    const api = await startApi({ accountMail: box.accountMail })
    const ada = await memberWithPermissions(api, "ada", [1])
    const anonymous = clientOf(api)
    expect(await anonymous.account.forgotPassword({ email: "ada@example.com" })).toHaveProperty("message")
    const resetToken = await box.tokenSent("ada@example.com", "password_reset")
    await anonymous.account.resetPassword({ token: resetToken, newPassword: "a new long passphrase" })
    const spent = await rejection(
      anonymous.account.resetPassword({ token: resetToken, newPassword: "another long passphrase" })
    )
    expect(spent).toMatchObject({ status: 410, code: "token_invalid" })
    const signedIn = sessionOf(
      await anonymous.auth.login({ username: "ada", password: "a new long passphrase" })
    )
    await clientOf(api, signedIn.token).account.requestEmailVerification()
    const verifyToken = await box.tokenSent("ada@example.com", "email_verification")
    const verified = await anonymous.account.verifyEmail({ token: verifyToken })
    expect(verified).toMatchObject({ id: ada.member.id, emailVerified: true })
    const asAda = clientOf(api, signedIn.token)
    const [current] = await asAda.sessions.listSessions()
    expect(current).toMatchObject({ current: true, organizationId: "default" })
    expect(await asAda.sessions.endSession({ id: current?.id ?? "" })).toMatchObject({ current: true })
    expect(await rejection(asAda.sessions.listSessions())).toMatchObject({ status: 401 })
  })

  it("adds, reads back and changes with plain values; one object holds path and body fields", async () => {
    const api = await startApi()
    const roster = clientOf(api, masterKey)
    const role = await roster.team.addRole({ name: "Readers", roleKey: "readers" })
    expect(role).toMatchObject({ name: "Readers", roleKey: "readers", activeStatus: true })
    expect(typeof role.createdAt).toBe("string")
    const detail = await roster.team.grantPermission({ roleId: role.id, permissionId: 1 })
    expect(detail.permissionIds).toEqual([1])
    const member = await roster.team.addMember({
      username: "ada",
      email: "ada@example.com",
      password,
      activestatus: true,
      roleId: role.id
    })
    expect(await roster.team.getMember({ id: member.id })).toMatchObject({ username: "ada", roleId: role.id })
    const renamed = await roster.team.updateRole({ id: role.id, name: "Auditors" })
    expect(renamed.name).toBe("Auditors")
    const removed = await roster.team.removePermission({ id: detail.id, permissionId: 1 })
    expect(removed.permissionIds).toEqual([])
  })

  it("signs in, then calls as the member; a problem rejects with its status, code and errors", async () => {
    const api = await startApi()
    const roster = clientOf(api, masterKey)
    const role = await roster.team.addRole({ name: "Crew", roleKey: "crew" })
    await roster.team.addMember({
      username: "boris",
      email: "boris@example.com",
      password,
      activestatus: true,
      roleId: role.id
    })
    const session = sessionOf(await clientOf(api).auth.login({ username: "boris", password }))
    const me = await clientOf(api, session.token).auth.me()
    expect(me).toMatchObject({ principal: "member", permissions: [] })

    const duplicate = await rejection(roster.team.addRole({ name: "Again", roleKey: "crew" }))
    expect(duplicate).toBeInstanceOf(RosterProblem)
    expect(duplicate).toMatchObject({ status: 409, code: "duplicate_role_key" })
    const invalid = (await rejection(roster.team.addRole({ name: "", roleKey: "x" }))) as RosterProblem
    expect(invalid.status).toBe(400)
    expect(invalid.errors.map((error) => error.path)).toContain("body.name")
    const refused = await rejection(clientOf(api, session.token).team.addRole({ name: "N", roleKey: "n" }))
    expect(refused).toMatchObject({ status: 403, code: "forbidden" })
  })

  it("iterates every item of every page, and gives the first page with its cursor", async () => {
    const api = await startApi()
    const roster = clientOf(api, masterKey)
    for (let i = 0; i < 5; i++) await roster.team.addRole({ name: `Role ${i}`, roleKey: `role-${i}` })
    const first = await roster.team.listRoles({ limit: 2 }).firstPage()
    expect(first.items).toHaveLength(2)
    expect(first.next).toEqual(expect.any(String))
    const second = await roster.team.listRoles({ limit: 2, cursor: first.next }).firstPage()
    expect(second.items.map((role) => role.id)).not.toContain(first.items[0]?.id)
    const keys: Array<string> = []
    for await (const role of roster.team.listRoles({ limit: 2 })) keys.push(role.roleKey)
    expect(keys.filter((key) => key.startsWith("role-")).sort()).toEqual([
      "role-0",
      "role-1",
      "role-2",
      "role-3",
      "role-4"
    ])
  })

  it("sends an Idempotency-Key: a repeat is answered without running again", async () => {
    const api = await startApi()
    const roster = clientOf(api, masterKey)
    const first = await roster.team.addRole({ name: "Once", roleKey: "once" }, { idempotencyKey: "k-1" })
    const again = await roster.team.addRole({ name: "Once", roleKey: "once" }, { idempotencyKey: "k-1" })
    expect(again).toEqual(first)
  })

  it("invites, lists the invitations, and accepts one: the new member is signed in", async () => {
    const api = await startApi()
    const roster = clientOf(api, masterKey)
    const role = await roster.team.addRole({ name: "Crew", roleKey: "crew" })
    const invitation = await roster.team.createInvitation({ email: "grace@example.com", roleId: role.id })
    expect(invitation).toMatchObject({ email: "grace@example.com", status: "pending" })
    const pending: Array<string> = []
    for await (const item of roster.team.listInvitations({ status: "pending" })) pending.push(item.email)
    expect(pending).toEqual(["grace@example.com"])
    const session = await clientOf(api).invitations.acceptInvitation({
      token: invitation.token ?? "",
      username: "grace",
      password
    })
    expect(session.member.username).toBe("grace")
    expect((await clientOf(api, session.token).auth.me()).principal).toBe("member")
    const gone = (await rejection(
      clientOf(api).invitations.acceptInvitation({
        token: invitation.token ?? "",
        username: "g2-x",
        password
      })
    )) as RosterProblem
    expect(gone).toMatchObject({ status: 410, code: "invitation_invalid" })
    expect((await roster.team.getInvitation({ id: invitation.id })).status).toBe("accepted")
  })
})
