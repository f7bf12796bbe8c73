// Hole 1 of the fourth outside review, played again over HTTP: linking an identity walked around
// the ceiling. Each attempt fails and changes nothing, on every store.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { acmeMember, actionsOn, asToken, logInAcme, oidcSignIn } from "../support/fourth-review.ts"
import { expectProblem, password } from "../support/http.ts"
import { startOidcIdp, type TestOidcIdp } from "../support/oidc-idp.ts"
import { inAcme, rosterBase, type SsoWorld, ssoWorld } from "../support/sso.ts"

let world: SsoWorld
let evilIdp: TestOidcIdp

beforeAll(async () => {
  world = await ssoWorld()
  evilIdp = await startOidcIdp(`${rosterBase}/api/v1/sso/oidc/callback`)
})

afterAll(async () => {
  await evilIdp?.close()
  await world?.dns.close()
})

/** The connection an administrator holding `organization.sso.write` makes to an IdP of their own. */
const ownConnection = async (token: string) => {
  const made = await world.api.call("POST", "/api/v1/organization/sso", {
    ...asToken(token),
    body: {
      kind: "oidc",
      issuer: evilIdp.issuer,
      clientId: evilIdp.clientId,
      clientSecret: evilIdp.clientSecret
    }
  })
  expect(made.status, made.text).toBe(200)
  return made.body.id as string
}

describe("hole 1: an identity linked to an account above the caller's own", () => {
  it("needs admin.accounts.write and the ceiling, like the account's password: the owner's session is never had", async () => {
    const boss = await acmeMember(world, "boss", { roleId: world.ownerRoleId }, "boss@acme.example")
    const mallory = await acmeMember(world, "mallory", { permissionIds: [1, 2, 12] })
    const mel = await acmeMember(world, "mel", { permissionIds: [1, 2, 7, 12] })
    const setPassword = (token: string) =>
      world.api.call("POST", `/api/v1/admin/members/${boss.id}/password`, {
        ...asToken(token),
        body: { newPassword: "mallory's chosen passphrase" }
      })
    expectProblem(await setPassword(mallory.token), 403, "forbidden")
    expectProblem(await setPassword(mel.token), 403, "forbidden")
    const connectionId = await ownConnection(mallory.token)
    evilIdp.accounts.set("evil-sub", { email: "mallory.evil@elsewhere.example" })
    const link = (token: string) =>
      world.api.call("POST", `/api/v1/team/members/${boss.id}/sso-link`, {
        ...asToken(token),
        body: { connectionId, subject: "evil-sub" }
      })
    expectProblem(await link(mallory.token), 403, "forbidden")
    expectProblem(await link(mel.token), 403, "forbidden")
    const signedIn = await oidcSignIn(world, evilIdp, connectionId, "evil-sub")
    expect(signedIn, "nobody signs in as the owner").toEqual({ error: "sso_refused" })
    expect(await actionsOn(world, boss.id)).not.toContain("sso.linked")
    expect((await logInAcme(world, "boss", password)).status, "the owner's password is hers").toBe(200)
  })

  it("never moves an identity linked to another account", async () => {
    const admin = await acmeMember(world, "linker", { permissionIds: [1, 2, 7, 12] })
    const carol = await acmeMember(world, "carol", { roleId: world.memberRoleId })
    const dave = await acmeMember(world, "dave", { roleId: world.memberRoleId })
    const connectionId = await ownConnection(admin.token)
    evilIdp.accounts.set("carol-sub", { email: "carol.idp@elsewhere.example" })
    const link = (memberId: string) =>
      world.api.call("POST", `/api/v1/team/members/${memberId}/sso-link`, {
        ...asToken(admin.token),
        body: { connectionId, subject: "carol-sub" }
      })
    const linked = await link(carol.id)
    expect(linked.status, linked.text).toBe(200)
    expect((await link(carol.id)).status, "linking it to its account again holds").toBe(200)
    expectProblem(await link(dave.id), 409, "sso_account_conflict")
    const moved = await world.api.call("POST", `/api/v1/team/members/${dave.id}/sso-link`, {
      ...inAcme,
      body: { connectionId, subject: "carol-sub" }
    })
    expectProblem(moved, 409, "sso_account_conflict")
    expect((await oidcSignIn(world, evilIdp, connectionId, "carol-sub")).memberId).toBe(carol.id)
    expect(await actionsOn(world, dave.id)).not.toContain("sso.linked")
  })
})
