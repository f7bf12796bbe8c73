import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  everyPermission,
  expectProblem,
  masterKey,
  memberWithPermissions,
  password
} from "../support/http.ts"
import { startOidcIdp, type TestOidcIdp } from "../support/oidc-idp.ts"
import { createUser, scimFor } from "../support/scim.ts"
import {
  endedWith,
  inAcme,
  productPage,
  rosterBase,
  type SsoWorld,
  signInAtOidc,
  ssoWorld
} from "../support/sso.ts"

let world: SsoWorld
let idp: TestOidcIdp
let connectionId: string
const inGlobex = { token: masterKey, headers: { "roster-organization": "globex" } }

beforeAll(async () => {
  world = await ssoWorld()
  idp = await startOidcIdp(`${rosterBase}/api/v1/sso/oidc/callback`)
  const made = await world.api.call("POST", "/api/v1/organization/sso", {
    ...inAcme,
    body: { kind: "oidc", issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret }
  })
  connectionId = made.body.id
  await world.api.call("POST", "/api/v1/organizations", {
    token: masterKey,
    body: { name: "Globex", slug: "globex" }
  })
})

afterAll(async () => {
  await idp?.close()
  await world?.dns.close()
})

/** Signs `login` in through the IdP from a fresh browser; what the sign-in ended with, and the browser. */
const ssoSignIn = async (login: string, returnTo = productPage) => {
  const browser = world.browser()
  const started = await browser.go(
    `${rosterBase}/api/v1/sso/start?organization=acme&returnTo=${encodeURIComponent(returnTo)}`
  )
  const ended = await signInAtOidc(browser, started, idp.issuer, login)
  return { ...endedWith(ended), browser }
}

const exchange = async (code: string | undefined) =>
  (await world.api.call("POST", "/api/v1/sso/token", { body: { code: code ?? "" } })).body

describe("domains", () => {
  it("are proven by their TXT record, which a refusal names; verified once, by one organisation", async () => {
    const added = await world.api.call("POST", "/api/v1/organization/domains", {
      ...inAcme,
      body: { domain: "Widgets.Example." }
    })
    expect(added.status, added.text).toBe(200)
    expect(added.body).toMatchObject({
      domain: "widgets.example",
      status: "pending",
      txtName: "_roster-challenge.widgets.example",
      verifiedAt: null
    })
    expect(added.body.txtValue).toMatch(/^rsd_[A-Za-z0-9_-]{43}$/)
    const verify = () =>
      world.api.call("POST", `/api/v1/organization/domains/${added.body.id}/verify`, { ...inAcme, body: {} })
    const nothing = expectProblem(await verify(), 409, "domain_unverified")
    expect(nothing).toMatchObject({ txtName: "_roster-challenge.widgets.example", found: [] })
    world.dns.records.set("_roster-challenge.widgets.example", ["v=spf1 -all", "rsd_not-this-one"])
    const wrong = expectProblem(await verify(), 409, "domain_unverified")
    expect(wrong.found).toEqual(["v=spf1 -all", "rsd_not-this-one"])
    world.dns.records.set("_roster-challenge.widgets.example", ["v=spf1 -all", added.body.txtValue])
    const verified = await verify()
    expect(verified.status, verified.text).toBe(200)
    expect(verified.body.status).toBe("verified")
    expect((await verify()).body.verifiedAt, "verifying again changes nothing").toBe(verified.body.verifiedAt)
    const elsewhere = await world.api.call("POST", "/api/v1/organization/domains", {
      ...inGlobex,
      body: { domain: "widgets.example" }
    })
    expectProblem(elsewhere, 409, "domain_taken")
    const twice = await world.api.call("POST", "/api/v1/organization/domains", {
      ...inAcme,
      body: { domain: "widgets.example" }
    })
    expectProblem(twice, 409, "domain_taken")
    const audit = await world.api.call("GET", `/api/v1/audit/events?targetId=${added.body.id}`, inAcme)
    expect(audit.body.map((entry: { action: string }) => entry.action)).toEqual([
      "domain.verified",
      "domain.created"
    ])
  })

  it("pending in two organisations, is verified by the first to prove it, and then refused to the other", async () => {
    const ours = await world.api.call("POST", "/api/v1/organization/domains", {
      ...inAcme,
      body: { domain: "shared.example" }
    })
    const theirs = await world.api.call("POST", "/api/v1/organization/domains", {
      ...inGlobex,
      body: { domain: "shared.example" }
    })
    expect([ours.status, theirs.status]).toEqual([200, 200])
    world.dns.records.set("_roster-challenge.shared.example", [ours.body.txtValue, theirs.body.txtValue])
    expect(
      (
        await world.api.call("POST", `/api/v1/organization/domains/${theirs.body.id}/verify`, {
          ...inGlobex,
          body: {}
        })
      ).status
    ).toBe(200)
    const late = await world.api.call("POST", `/api/v1/organization/domains/${ours.body.id}/verify`, {
      ...inAcme,
      body: {}
    })
    expectProblem(late, 409, "domain_taken")
    const read = await world.api.call("GET", `/api/v1/organization/domains/${ours.body.id}`, inAcme)
    expect(read.body.status, "nothing changed").toBe("pending")
  })

  it("may be declared verified by the operator alone, and are another organisation's to read and change", async () => {
    const added = await world.api.call("POST", "/api/v1/organization/domains", {
      ...inGlobex,
      body: { domain: "globex.example" }
    })
    const admin = await memberWithPermissions(world.api, "ssoadmin", [12])
    const asAdmin = { token: admin.token }
    const own = await world.api.call("POST", "/api/v1/organization/domains", {
      ...asAdmin,
      body: { domain: "default.example" }
    })
    const claimed = await world.api.call("POST", `/api/v1/organization/domains/${own.body.id}/verify`, {
      ...asAdmin,
      body: { verified: true }
    })
    expectProblem(claimed, 403, "forbidden")
    for (const [method, path] of [
      ["GET", `/api/v1/organization/domains/${added.body.id}`],
      ["POST", `/api/v1/organization/domains/${added.body.id}/verify`],
      ["DELETE", `/api/v1/organization/domains/${added.body.id}`],
      ["GET", `/api/v1/organization/sso/${connectionId}`],
      ["PATCH", `/api/v1/organization/sso/${connectionId}`],
      ["DELETE", `/api/v1/organization/sso/${connectionId}`]
    ] as const) {
      const answer = await world.api.call(method, path, {
        ...asAdmin,
        ...(method === "GET" || method === "DELETE" ? {} : { body: {} })
      })
      expectProblem(answer, 404, "not_found")
    }
    const reader = await memberWithPermissions(world.api, "ssoreader", [1, 2, 9])
    for (const [method, path, body] of [
      ["GET", "/api/v1/organization/domains", undefined],
      ["POST", "/api/v1/organization/domains", { domain: "x.example" }],
      ["GET", "/api/v1/organization/sso", undefined],
      [
        "POST",
        "/api/v1/organization/sso",
        { kind: "oidc", issuer: idp.issuer, clientId: "x", clientSecret: "y" }
      ],
      ["PATCH", "/api/v1/organization", { ssoRequired: true }]
    ] as const) {
      const refused = expectProblem(
        await world.api.call(method, path, { token: reader.token, body }),
        403,
        "forbidden"
      )
      expect(refused.permission).toBe("organization.sso.write")
    }
    const operator = await world.api.call("POST", `/api/v1/organization/domains/${added.body.id}/verify`, {
      ...inGlobex,
      body: { verified: true }
    })
    expect(operator.body.status).toBe("verified")
  })
})

describe("who signs in", () => {
  it("links a member SCIM provisioned here, by its externalId or e-mail; a deactivated one is refused like a password login", async () => {
    const scim = await scimFor(world.api, "acme")
    const provisioned = await createUser(scim, "prov@acme.example", { externalId: "prov-sub" })
    idp.accounts.set("prov-sub", { email: "someone.else@acme.example" })
    const first = await ssoSignIn("prov-sub")
    expect((await exchange(first.code)).member.id, "linked by its externalId").toBe(provisioned.id)
    const byEmail = await createUser(scim, "mail@acme.example")
    idp.accounts.set("mail-sub", { email: "mail@acme.example" })
    expect((await exchange((await ssoSignIn("mail-sub")).code)).member.id, "linked by its e-mail").toBe(
      byEmail.id
    )
    const deactivated = await scim.call("PATCH", `/Users/${byEmail.id}`, {
      body: {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
        Operations: [{ op: "replace", path: "active", value: false }]
      }
    })
    expect(deactivated.status, deactivated.text).toBe(200)
    expect((await ssoSignIn("mail-sub")).error).toBe("forbidden")
  })

  it("refuses an inactive membership, a disabled account, and an address the IdP has not verified", async () => {
    idp.accounts.set("ines-sub", { email: "ines@acme.example" })
    const ines = await exchange((await ssoSignIn("ines-sub")).code)
    const inactive = await world.api.call("PATCH", `/api/v1/team/members/${ines.member.id}`, {
      ...inAcme,
      body: { activestatus: false }
    })
    expect(inactive.status, inactive.text).toBe(200)
    expect((await ssoSignIn("ines-sub")).error).toBe("forbidden")
    idp.accounts.set("dora-sub", { email: "dora@acme.example" })
    const dora = await exchange((await ssoSignIn("dora-sub")).code)
    const disabled = await world.api.call("POST", "/api/v1/admin/toggle-account-status", {
      ...inAcme,
      body: { user_id: dora.member.id, accountActiveStatus: false }
    })
    expect(disabled.status, disabled.text).toBe(200)
    expect((await ssoSignIn("dora-sub")).error).toBe("forbidden")
    const session = await world.api.call("GET", "/api/v1/auth/me", { token: dora.token })
    expect(session.status, "the disabled account's session ended").toBe(401)
    idp.accounts.set("ula-sub", { email: "ula@acme.example", emailVerified: false })
    expect((await ssoSignIn("ula-sub")).error).toBe("sso_refused")
  })
})

describe("the organisation's policy", () => {
  it("holds members of its verified domains to single sign-on, owners aside; an SSO sign-in counts as two factors", async () => {
    const inside = await world.api.call("POST", "/api/v1/team/add", {
      ...inAcme,
      body: {
        username: "inside",
        email: "inside@acme.example",
        password,
        activestatus: true,
        roleId: world.memberRoleId
      }
    })
    const outside = await world.api.call("POST", "/api/v1/team/add", {
      ...inAcme,
      body: {
        username: "outside",
        email: "outside@elsewhere.example",
        password,
        activestatus: true,
        roleId: world.memberRoleId
      }
    })
    const owner = await world.api.call("POST", "/api/v1/team/add", {
      ...inAcme,
      body: {
        username: "boss",
        email: "boss@acme.example",
        password,
        activestatus: true,
        roleId: world.ownerRoleId
      }
    })
    expect([inside.status, outside.status, owner.status]).toEqual([200, 200, 200])
    const set = await world.api.call("PATCH", "/api/v1/organization", {
      ...inAcme,
      body: { ssoRequired: true, requireMfa: true }
    })
    expect(set.body).toMatchObject({ ssoRequired: true, requireMfa: true })
    const login = (username: string) =>
      world.api.call("POST", "/api/v1/auth/login", { body: { username, password, organization: "acme" } })
    expectProblem(await login("inside"), 403, "sso_required")
    expect((await login("outside")).status).toBe(200)
    expect((await login("boss")).status, "an owner keeps the way in").toBe(200)
    const invited = await world.api.call("POST", "/api/v1/team/invitations", {
      ...inAcme,
      body: { email: "newbie@acme.example", roleId: world.memberRoleId }
    })
    const accepted = await world.api.call("POST", "/api/v1/invitations/accept", {
      body: { token: invited.body.token, username: "newbie", password }
    })
    expectProblem(accepted, 403, "sso_required")
    idp.accounts.set("mfa-sub", { email: "mfa@acme.example" })
    const signedIn = await exchange((await ssoSignIn("mfa-sub")).code)
    const members = await world.api.call("GET", "/api/v1/team/members", { token: signedIn.token })
    expect(members.status, "no TOTP asked of an SSO sign-in where a second factor is required").toBe(200)
    const byPassword = await login("outside")
    const refused = await world.api.call("GET", "/api/v1/team/members", { token: byPassword.body.token })
    expectProblem(refused, 403, "mfa_required")
    await world.api.call("PATCH", "/api/v1/organization", {
      ...inAcme,
      body: { ssoRequired: false, requireMfa: false }
    })
    expect((await login("inside")).status).toBe(200)
  })

  it("is changed only by a holder of organization.sso.write, and its changes are audited", async () => {
    const writer = await memberWithPermissions(
      world.api,
      "orgwriter",
      everyPermission.filter((id) => id !== 12)
    )
    const refused = await world.api.call("PATCH", "/api/v1/organization", {
      token: writer.token,
      body: { ssoRequired: true }
    })
    expectProblem(refused, 403, "forbidden")
    const renamed = await world.api.call("PATCH", "/api/v1/organization", {
      token: writer.token,
      body: { name: "Default" }
    })
    expect(renamed.status, renamed.text).toBe(200)
  })
})
