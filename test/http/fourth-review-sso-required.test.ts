// Hole 10 of the fourth outside review, played again over HTTP: a member held to single sign-on
// left it by moving their own address out of the verified domain, and sessions a password made
// before the policy outlived it.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { acmeMember, asToken, logInAcme, oidcSignIn } from "../support/fourth-review.ts"
import { expectProblem, password } from "../support/http.ts"
import { mailbox } from "../support/mailbox.ts"
import { startOidcIdp, type TestOidcIdp } from "../support/oidc-idp.ts"
import { inAcme, rosterBase, type SsoWorld, ssoWorld } from "../support/sso.ts"

const box = mailbox()
let world: SsoWorld
let idp: TestOidcIdp

beforeAll(async () => {
  world = await ssoWorld({ accountMail: box.accountMail })
  idp = await startOidcIdp(`${rosterBase}/api/v1/sso/oidc/callback`)
})

afterAll(async () => {
  await idp?.close()
  await world?.dns.close()
})

const changeEmail = (token: string, email: string) =>
  world.api.call("POST", "/api/v1/auth/email/change", { ...asToken(token), body: { email, password } })

describe("hole 10: leaving single sign-on by one's own address", () => {
  it("ends the password's sessions when it is turned on, and keeps the address in the verified domains, owners aside", async () => {
    const ivy = await acmeMember(world, "ivy", { roleId: world.memberRoleId }, "ivy@acme.example")
    const boss = await acmeMember(world, "boss", { roleId: world.ownerRoleId }, "boss@acme.example")
    expect((await changeEmail(ivy.token, "ivy@elsewhere.example")).status).toBe(202)
    const early = await box.tokenSent("ivy@elsewhere.example", "email_change", 1)
    const required = await world.api.call("PATCH", "/api/v1/organization", {
      ...inAcme,
      body: { ssoRequired: true }
    })
    expect(required.status, required.text).toBe(200)
    expect((await world.api.call("GET", "/api/v1/auth/me", asToken(ivy.token))).status).toBe(401)
    expect((await world.api.call("GET", "/api/v1/auth/me", asToken(boss.token))).status, "owners aside").toBe(
      200
    )
    const followed = await world.api.call("POST", "/api/v1/auth/email/verify", { body: { token: early } })
    expectProblem(followed, 403, "sso_required")
    expectProblem(await logInAcme(world, "ivy"), 403, "sso_required")

    const made = await world.api.call("POST", "/api/v1/organization/sso", {
      ...inAcme,
      body: { kind: "oidc", issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret }
    })
    await world.api.call("POST", `/api/v1/team/members/${ivy.id}/sso-link`, {
      ...inAcme,
      body: { connectionId: made.body.id, subject: "ivy-sub" }
    })
    idp.accounts.set("ivy-sub", { email: "ivy@acme.example" })
    const signedIn = await oidcSignIn(world, idp, made.body.id, "ivy-sub")
    expect(signedIn.memberId).toBe(ivy.id)
    const token = signedIn.token ?? ""
    expect((await world.api.call("GET", "/api/v1/auth/me", asToken(token))).status, "an SSO session").toBe(
      200
    )
    expectProblem(await changeEmail(token, "ivy@personal.example"), 403, "sso_required")
    expect((await changeEmail(token, "ivy.new@acme.example")).status, "within the domain").toBe(202)
    const member = await world.api.call("GET", `/api/v1/team/members/${ivy.id}`, inAcme)
    expect(member.body.email, "nothing changed").toBe("ivy@acme.example")
    expectProblem(await logInAcme(world, "ivy"), 403, "sso_required")
    expect((await changeEmail(boss.token, "boss@personal.example")).status, "an owner may").toBe(202)
  })
})
