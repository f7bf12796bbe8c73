// What a fourth outside review did with SAML answers Roster never asked for, and with an IdP's
// other entity ids: responses really signed by a test IdP's key, each attack refused, nothing made.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { browserSession } from "../support/browser-session.ts"
import { type Assertion, samlIdp, type TestSamlIdp } from "../support/saml-idp.ts"
import { endedWith, inAcme, productPage, rosterBase, type SsoWorld, ssoWorld } from "../support/sso.ts"

let world: SsoWorld
let idp: TestSamlIdp
let connection: { id: string; spEntityId: string; acsUrl: string }

beforeAll(async () => {
  world = await ssoWorld()
  idp = await samlIdp()
  const made = await world.api.call("POST", "/api/v1/organization/sso", {
    ...inAcme,
    body: { kind: "saml", name: "Test IdP", idpMetadataXml: idp.metadata }
  })
  expect(made.status, made.text).toBe(200)
  connection = made.body
})

afterAll(async () => {
  await world?.dns.close()
})

const browser = () =>
  browserSession({
    [rosterBase]: (request) => world.api.web.handler(request, { remoteAddress: "198.51.100.10" }),
    "https://idp.test": async () => new Response("the IdP's sign-in page"),
    "https://app.example.com": async () => new Response("the product's page")
  })

const xmlOf = (response: string) => Buffer.from(response, "base64").toString("utf8")
const base64 = (xml: string) => Buffer.from(xml).toString("base64")
const respondTo = (requestId: string, assertion: Assertion, by = idp) =>
  by.respond({ spEntityId: connection.spEntityId, acsUrl: connection.acsUrl, requestId }, assertion)

/** Starts a sign-in in `session` and posts to the ACS what `answer` makes of its AuthnRequest's id. */
const signIn = async (answer: (requestId: string) => Promise<string>, session = browser()) => {
  const started = await session.go(
    `${rosterBase}/api/v1/sso/start?organization=acme&returnTo=${encodeURIComponent(productPage)}`
  )
  const request = idp.requestOf(started.url)
  const ended = await session.go(connection.acsUrl, {
    form: { SAMLResponse: await answer(request.id), RelayState: request.relayState }
  })
  return { ended, session }
}

const emails = async () =>
  (await world.api.call("GET", "/api/v1/team/members?q=%40acme.example", inAcme)).body.map(
    (member: { email: string }) => member.email
  ) as ReadonlyArray<string>

const ssoLogins = async () =>
  (await world.api.call("GET", "/api/v1/audit/events?action=sso.login", inAcme)).body.length as number

/** The sign-in refused, its browser given no session, nobody made, no sign-in recorded. */
const expectNothingGained = async (
  attempt: { ended: { url: string }; session: ReturnType<typeof browser> },
  email: string,
  loginsBefore: number
) => {
  expect(endedWith(attempt.ended as never), attempt.ended.url).toEqual({ error: "sso_refused" })
  expect(attempt.session.cookies("localhost:4455").has("roster_session")).toBe(false)
  expect(await emails()).not.toContain(email)
  expect(await ssoLogins()).toBe(loginsBefore)
}

/** Puts `InResponseTo` on the Response element, where the attacker can write it (it breaks only its signature). */
const claimingToAnswer = (response: string, requestId: string) =>
  base64(xmlOf(response).replace("<samlp:Response ", `<samlp:Response InResponseTo="${requestId}" `))

describe("a SAML answer Roster did not ask for", () => {
  it("an IdP-initiated response made to answer the attacker's own sign-in signs nobody in", async () => {
    const before = await ssoLogins()
    for (const signing of [{ signBoth: true }, { signAssertion: true }]) {
      // The IdP sent the victim's browser an unsolicited response; the attacker has it.
      const unsolicited = await respondTo("", {
        nameId: "n-vera",
        email: "vera@acme.example",
        inResponseTo: null,
        ...signing
      })
      const attack = await signIn(async (requestId) => claimingToAnswer(unsolicited, requestId))
      await expectNothingGained(attack, "vera@acme.example", before)
    }
  })

  it("an IdP-initiated response is refused and its assertion spent all the same", async () => {
    const before = await ssoLogins()
    const unsolicited = await signIn(() =>
      respondTo("", {
        nameId: "n-walt",
        email: "walt@acme.example",
        inResponseTo: null,
        signBoth: true,
        assertionId: "_idp-initiated-walt"
      })
    )
    await expectNothingGained(unsolicited, "walt@acme.example", before)
    // The same assertion, now answering a request: it was spent when it was first read.
    const again = await signIn((requestId) =>
      respondTo(requestId, {
        nameId: "n-walt",
        email: "walt@acme.example",
        assertionId: "_idp-initiated-walt"
      })
    )
    await expectNothingGained(again, "walt@acme.example", before)
  })

  it("both the Response's and the assertion's InResponseTo must name this sign-in's request", async () => {
    const before = await ssoLogins()
    const shapes: ReadonlyArray<(requestId: string) => Promise<string>> = [
      // Signed as it is: the Response answers the request, its assertion's confirmation names none.
      (requestId) =>
        respondTo(requestId, {
          nameId: "n-xena",
          email: "xena@acme.example",
          signBoth: true,
          template: (xml) =>
            xml.replace(
              ' Recipient="{SubjectRecipient}" InResponseTo="{InResponseTo}"',
              ' Recipient="{SubjectRecipient}"'
            )
        }),
      // The confirmation names another request.
      (requestId) =>
        respondTo(requestId, {
          nameId: "n-xena",
          email: "xena@acme.example",
          template: (xml) =>
            xml.replace(
              ' Recipient="{SubjectRecipient}" InResponseTo="{InResponseTo}"',
              ' Recipient="{SubjectRecipient}" InResponseTo="_another-request"'
            )
        }),
      // The confirmation names this request, the Response none.
      (requestId) =>
        respondTo(requestId, {
          nameId: "n-xena",
          email: "xena@acme.example",
          signAssertion: true,
          template: (xml) =>
            xml.replace(
              'Destination="{Destination}" InResponseTo="{InResponseTo}"',
              'Destination="{Destination}"'
            )
        })
    ]
    for (const shape of shapes) await expectNothingGained(await signIn(shape), "xena@acme.example", before)
  })

  it("a bearer confirmation without NotOnOrAfter is refused", async () => {
    const before = await ssoLogins()
    for (const signing of [{ signBoth: true }, { signAssertion: true }, {}]) {
      const attempt = await signIn((requestId) =>
        respondTo(requestId, {
          nameId: "n-yuri",
          email: "yuri@acme.example",
          ...signing,
          template: (xml) => xml.replace(' NotOnOrAfter="{SubjectConfirmationDataNotOnOrAfter}"', "")
        })
      )
      await expectNothingGained(attempt, "yuri@acme.example", before)
    }
  })

  it("a response that answers this sign-in, signed as the IdP signs, still signs in", async () => {
    const { ended } = await signIn((requestId) =>
      respondTo(requestId, { nameId: "n-zoe", email: "zoe@acme.example", signBoth: true })
    )
    expect(endedWith(ended as never).code, ended.url).toMatch(/^rso_/u)
  })
})

describe("an assertion issued by another entity id", () => {
  it("is refused though signed with the connection's pinned key (another tenant of the same IdP)", async () => {
    const before = await ssoLogins()
    const otherTenant = "https://idp.test/other-tenant/metadata"
    const assertionIssuer = (xml: string) => {
      const at = xml.indexOf("<saml:Assertion")
      return `${xml.slice(0, at)}${xml.slice(at).replace("<saml:Issuer>{Issuer}</saml:Issuer>", `<saml:Issuer>${otherTenant}</saml:Issuer>`)}`
    }
    for (const template of [
      assertionIssuer,
      (xml: string) =>
        xml.replaceAll("<saml:Issuer>{Issuer}</saml:Issuer>", `<saml:Issuer>${otherTenant}</saml:Issuer>`)
    ]) {
      for (const signing of [{ signBoth: true }, { signAssertion: true }, {}]) {
        const attempt = await signIn((requestId) =>
          respondTo(requestId, { nameId: "n-uma", email: "uma@acme.example", ...signing, template })
        )
        await expectNothingGained(attempt, "uma@acme.example", before)
      }
    }
  })
})
