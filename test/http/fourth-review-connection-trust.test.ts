// Hole 2 of the fourth outside review, played again over HTTP with real SAML signatures: swapping
// a connection's IdP kept every account linked through it, and a connection anyone set up linked
// SCIM-provisioned owners. Each attempt fails and changes nothing, on every store.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { browserSession } from "../support/browser-session.ts"
import { acmeMember, actionsOn, asToken } from "../support/fourth-review.ts"
import { expectProblem } from "../support/http.ts"
import { samlIdp, type TestSamlIdp } from "../support/saml-idp.ts"
import { createUser, scimFor } from "../support/scim.ts"
import { endedWith, inAcme, productPage, rosterBase, type SsoWorld, ssoWorld } from "../support/sso.ts"

let world: SsoWorld
let idp: TestSamlIdp
/** The attacker's own IdP under the same entity id, signing with a key of its own. */
let lookalike: TestSamlIdp
/** The attacker's own IdP. */
let evil: TestSamlIdp

beforeAll(async () => {
  world = await ssoWorld()
  idp = await samlIdp()
  lookalike = await samlIdp()
  evil = await samlIdp("https://evil.test")
})

afterAll(async () => {
  await world?.dns.close()
})

const browser = () =>
  browserSession({
    [rosterBase]: (request) => world.api.web.handler(request, { remoteAddress: "198.51.100.12" }),
    "https://idp.test": async () => new Response("the IdP's sign-in page"),
    "https://evil.test": async () => new Response("the attacker's sign-in page"),
    "https://app.example.com": async () => new Response("the product's page")
  })

interface Connection {
  readonly id: string
  readonly spEntityId: string
  readonly acsUrl: string
}

const connect = async (token: string, metadata: string): Promise<Connection> => {
  const made = await world.api.call("POST", "/api/v1/organization/sso", {
    ...asToken(token),
    body: { kind: "saml", idpMetadataXml: metadata }
  })
  expect(made.status, made.text).toBe(200)
  return made.body
}

/** A sign-in through `connection` that `signer` answers for `nameId`: the member it signed in, or its error. */
const signIn = async (connection: Connection, signer: TestSamlIdp, nameId: string, email?: string) => {
  const session = browser()
  const started = await session.go(
    `${rosterBase}/api/v1/sso/start?connection=${connection.id}&returnTo=${encodeURIComponent(productPage)}`
  )
  const request = signer.requestOf(started.url)
  const response = await signer.respond(
    { spEntityId: connection.spEntityId, acsUrl: connection.acsUrl, requestId: request.id },
    { nameId, ...(email === undefined ? {} : { email }) }
  )
  const ended = endedWith(
    await session.go(connection.acsUrl, { form: { SAMLResponse: response, RelayState: request.relayState } })
  )
  if (ended.code === undefined) return { error: ended.error }
  const exchanged = await world.api.call("POST", "/api/v1/sso/token", { body: { code: ended.code } })
  return { memberId: exchanged.body.member.id as string }
}

describe("hole 2: a connection's IdP swapped under the accounts linked through it", () => {
  it("is refused to a caller below a linked member's role: the attacker's signature signs nobody in", async () => {
    const connection = await connect(inAcme.token, idp.metadata)
    const boss = await acmeMember(world, "boss", { roleId: world.ownerRoleId }, "boss@acme.example")
    const linked = await world.api.call("POST", `/api/v1/team/members/${boss.id}/sso-link`, {
      ...inAcme,
      body: { connectionId: connection.id, subject: "boss-nameid" }
    })
    expect(linked.status, linked.text).toBe(200)
    const mallory = await acmeMember(world, "mallory", { permissionIds: [1, 12] })
    const patch = (token: string, body: Record<string, unknown>) =>
      world.api.call("PATCH", `/api/v1/organization/sso/${connection.id}`, { ...asToken(token), body })
    for (const swap of [
      { idpCertificate: lookalike.certificate },
      { idpMetadataXml: lookalike.metadata },
      { idpSsoUrl: "https://idp.test/elsewhere" }
    ]) {
      expectProblem(await patch(mallory.token, swap), 403, "forbidden")
    }
    expect((await patch(mallory.token, { name: "Renamed" })).status, "its name is no trust").toBe(200)
    expect(await signIn(connection, lookalike, "boss-nameid")).toEqual({ error: "sso_refused" })
    expect(await signIn(connection, idp, "boss-nameid"), "the IdP it trusted still signs her in").toEqual({
      memberId: boss.id
    })
    const read = await world.api.call("GET", `/api/v1/organization/sso/${connection.id}`, inAcme)
    expect(read.body).toMatchObject({ idpEntityId: idp.entityId, idpSsoUrl: idp.ssoUrl, name: "Renamed" })
    expect(await actionsOn(world, connection.id)).toEqual([
      "sso.connection.updated",
      "sso.connection.created"
    ])
    expect((await patch(boss.token, { idpCertificate: idp.certificate })).status, "an owner may").toBe(200)
  })
})

describe("hole 2: a connection set up by an administrator below the owners", () => {
  it("links no SCIM-provisioned owner, by externalId or e-mail, and makes members just in time only within its maker's role", async () => {
    const scim = await scimFor(world.api, "acme")
    const olive = await createUser(scim, "olive@acme.example", { externalId: "olive-ext" })
    const promoted = await world.api.call("PATCH", `/api/v1/team/members/${olive.id}`, {
      ...inAcme,
      body: { roleId: world.ownerRoleId }
    })
    expect(promoted.status, promoted.text).toBe(200)
    const sam = await acmeMember(world, "sam", { permissionIds: [1, 12] })
    const own = await connect(sam.token, evil.metadata)
    expect(await signIn(own, evil, "olive-ext")).toEqual({ error: "sso_refused" })
    expect(await signIn(own, evil, "evil-sub", "olive@acme.example")).toEqual({ error: "sso_refused" })
    expect(await actionsOn(world, olive.id)).not.toContain("sso.login")
    const newcomer = await signIn(own, evil, "newcomer-sub", "newcomer@acme.example")
    const joined = await world.api.call("GET", `/api/v1/team/members/${newcomer.memberId}`, inAcme)
    expect(joined.body.roleId, "the default role is within its maker's").toBe(world.memberRoleId)
    const owners = await connect(inAcme.token, idp.metadata)
    expect(await signIn(owners, idp, "olive-ext"), "an operator's connection links her").toEqual({
      memberId: olive.id
    })
  })
})
