import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { browserSession, formOf } from "../support/browser-session.ts"
import { expectProblem } from "../support/http.ts"
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

/** A browser that stops at the IdP: the test answers for it, as the IdP or as an attacker. */
const browser = () =>
  browserSession({
    [rosterBase]: (request) => world.api.web.handler(request, { remoteAddress: "198.51.100.9" }),
    "https://idp.test": async () => new Response("the IdP's sign-in page"),
    "https://app.example.com": async () => new Response("the product's page")
  })

/** Starts a sign-in and answers it with what the IdP (or an attacker) makes of its AuthnRequest. */
const signIn = async (
  assertion: Assertion | ((requestId: string) => Promise<string>),
  session = browser()
) => {
  const started = await session.go(
    `${rosterBase}/api/v1/sso/start?organization=acme&returnTo=${encodeURIComponent(productPage)}`
  )
  expect(started.url.startsWith(idp.ssoUrl), started.url).toBe(true)
  const request = idp.requestOf(started.url)
  const response =
    typeof assertion === "function"
      ? await assertion(request.id)
      : await idp.respond(
          { spEntityId: connection.spEntityId, acsUrl: connection.acsUrl, requestId: request.id },
          assertion
        )
  const ended = await session.go(connection.acsUrl, {
    form: { SAMLResponse: response, RelayState: request.relayState }
  })
  return { started, ended, request, response, session }
}

const xmlOf = (response: string) => Buffer.from(response, "base64").toString("utf8")
const base64 = (xml: string) => Buffer.from(xml).toString("base64")
const respondTo = (requestId: string, assertion: Assertion) =>
  idp.respond({ spEntityId: connection.spEntityId, acsUrl: connection.acsUrl, requestId }, assertion)

describe("single sign-on through a SAML IdP", () => {
  it("answers the connection with Roster's SP values, and serves its metadata with the signing certificate", async () => {
    expect(connection).toMatchObject({
      kind: "saml",
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      acsUrl: `${rosterBase}/api/v1/sso/saml/acs`,
      spEntityId: `${rosterBase}/api/v1/sso/saml/${connection.id}/metadata`
    })
    const metadata = await world.api.call("GET", `/api/v1/sso/saml/${connection.id}/metadata`)
    expect(metadata.status).toBe(200)
    expect(metadata.headers.get("content-type")).toContain("application/samlmetadata+xml")
    expect(metadata.text).toContain(`entityID="${connection.spEntityId}"`)
    expect(metadata.text).toContain("X509Certificate")
    expect(metadata.text).not.toContain("PRIVATE KEY")
  })

  it("sends a signed AuthnRequest and signs in, just in time, the person a signed response names", async () => {
    const { started, ended, request } = await signIn({ nameId: "n-ada", email: "ada.saml@acme.example" })
    expect(request.xml).toContain(connection.spEntityId)
    const sent = new URL(started.url).searchParams
    expect(sent.get("SigAlg")).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")
    expect(sent.get("Signature")).toMatch(/^[A-Za-z0-9+/]+=*$/u)
    const { code } = endedWith(ended)
    expect(code, ended.url).toMatch(/^rso_/)
    const exchanged = await world.api.call("POST", "/api/v1/sso/token", { body: { code } })
    expect(exchanged.body.member.email).toBe("ada.saml@acme.example")
  })

  it("accepts an assertion signed rather than the response, and a NameID that is the address", async () => {
    const { ended } = await signIn({ nameId: "bob.saml@acme.example", signAssertion: true })
    const exchanged = await world.api.call("POST", "/api/v1/sso/token", {
      body: { code: endedWith(ended).code }
    })
    expect(exchanged.body.member.email).toBe("bob.saml@acme.example")
  })

  it("allows clocks a minute apart, not more", async () => {
    const within = await signIn({ nameId: "n-skew", email: "skew@acme.example", validUntil: -30 })
    expect(endedWith(within.ended).code, within.ended.url).toMatch(/^rso_/)
    const stale = await signIn({ nameId: "n-stale", email: "stale@acme.example", validUntil: -120 })
    expect(endedWith(stale.ended)).toEqual({ error: "sso_refused" })
    const early = await signIn({ nameId: "n-early", email: "early@acme.example", validFrom: 300 })
    expect(endedWith(early.ended)).toEqual({ error: "sso_refused" })
  })

  it("refuses another audience, an unsolicited response, a reply to another request, and another IdP's signature", async () => {
    const audience = await signIn({
      nameId: "n-1",
      email: "one@acme.example",
      audience: "https://other-sp.example/metadata"
    })
    expect(endedWith(audience.ended)).toEqual({ error: "sso_refused" })
    const unsolicited = await signIn({ nameId: "n-2", email: "two@acme.example", inResponseTo: null })
    expect(endedWith(unsolicited.ended)).toEqual({ error: "sso_refused" })
    const elsewhere = await signIn({
      nameId: "n-3",
      email: "three@acme.example",
      inResponseTo: "_another-request"
    })
    expect(endedWith(elsewhere.ended)).toEqual({ error: "sso_refused" })
    const impostor = await samlIdp()
    const foreign = await signIn((requestId) =>
      impostor.respond(
        { spEntityId: connection.spEntityId, acsUrl: connection.acsUrl, requestId },
        { nameId: "n-4", email: "four@acme.example" }
      )
    )
    expect(endedWith(foreign.ended)).toEqual({ error: "sso_refused" })
    const members = await world.api.call("GET", "/api/v1/team/members?q=%40acme.example", inAcme)
    for (const email of ["one", "two", "three", "four"]) {
      expect(members.body.map((member: { email: string }) => member.email)).not.toContain(
        `${email}@acme.example`
      )
    }
  })

  it("refuses a tampered NameID and a stripped signature", async () => {
    const tampered = await signIn(async (requestId) =>
      base64(
        xmlOf(await respondTo(requestId, { nameId: "n-carol", email: "carol@acme.example" })).replace(
          ">n-carol<",
          ">n-admin<"
        )
      )
    )
    expect(endedWith(tampered.ended)).toEqual({ error: "sso_refused" })
    const stripped = await signIn(async (requestId) =>
      base64(
        xmlOf(await respondTo(requestId, { nameId: "n-dan", email: "dan@acme.example" })).replace(
          /<ds:Signature[\s\S]*?<\/ds:Signature>/u,
          ""
        )
      )
    )
    expect(endedWith(stripped.ended)).toEqual({ error: "sso_refused" })
  })

  it("refuses every shape of signature wrapping: never the unsigned assertion's person", async () => {
    const evil = (xml: string) =>
      (/<saml:Assertion[\s\S]*<\/saml:Assertion>/u.exec(xml)?.[0] ?? "")
        .replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/u, "")
        .replace(/ID="[^"]+"/u, 'ID="_evil"')
        .replace(/>n-[a-z]+</u, ">n-evil<")
        .replace(/>[a-z]+@acme\.example</u, ">evil@acme.example<")
    const shapes: ReadonlyArray<(xml: string) => string> = [
      // An unsigned assertion before the signed one.
      (xml) => xml.replace("<saml:Assertion", `${evil(xml)}<saml:Assertion`),
      // An unsigned assertion after the signed one.
      (xml) => xml.replace("</samlp:Response>", `${evil(xml)}</samlp:Response>`),
      // The signed assertion hidden in Extensions, an unsigned one in its place.
      (xml) => {
        const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/u.exec(xml)?.[0] ?? ""
        return xml
          .replace(signed, `${evil(xml)}`)
          .replace("<samlp:Status>", `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`)
      },
      // The signed response wrapped inside an unsigned one carrying the evil assertion.
      (xml) => {
        const inner = xml.replace(/^<\?xml[^>]*>/u, "")
        return `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_outer" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>${idp.entityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${evil(xml)}<samlp:Extensions>${inner}</samlp:Extensions></samlp:Response>`
      }
    ]
    for (const [index, shape] of shapes.entries()) {
      for (const signAssertion of [false, true]) {
        const wrapped = await signIn(async (requestId) =>
          base64(
            shape(
              xmlOf(
                await respondTo(requestId, {
                  nameId: `n-wrap${index}`,
                  email: `wrap${index}@acme.example`,
                  signAssertion
                })
              )
            )
          )
        )
        const { code, error } = endedWith(wrapped.ended)
        if (code !== undefined) {
          const exchanged = await world.api.call("POST", "/api/v1/sso/token", { body: { code } })
          expect(exchanged.body.member.email, `shape ${index}`).not.toBe("evil@acme.example")
        } else
          expect(error, `shape ${index}, ${signAssertion ? "assertion" : "response"} signed`).toBe(
            "sso_refused"
          )
      }
    }
    const members = await world.api.call("GET", "/api/v1/team/members?q=evil", inAcme)
    expect(members.body).toEqual([])
  })

  it("accepts each assertion once, and each sign-in once", async () => {
    const first = await signIn({ nameId: "n-erin", email: "erin@acme.example", assertionId: "_once" })
    expect(endedWith(first.ended).code).toMatch(/^rso_/)
    const again = await signIn({ nameId: "n-erin", email: "erin@acme.example", assertionId: "_once" })
    expect(endedWith(again.ended)).toEqual({ error: "sso_refused" })
    const replayed = await first.session.go(connection.acsUrl, {
      form: { SAMLResponse: first.response, RelayState: first.request.relayState }
    })
    expect(endedWith(replayed)).toEqual({ error: "sso_refused" })
  })

  it("completes only in the browser that started: the response posted from another browser signs nobody in there", async () => {
    const victim = browser()
    const started = await victim.go(
      `${rosterBase}/api/v1/sso/start?organization=acme&returnTo=${encodeURIComponent(productPage)}`
    )
    const request = idp.requestOf(started.url)
    const response = await respondTo(request.id, { nameId: "n-frank", email: "frank@acme.example" })
    const attacker = browser()
    const stolen = await attacker.go(connection.acsUrl, {
      form: { SAMLResponse: response, RelayState: request.relayState }
    })
    expect(stolen.url).toBe(`${rosterBase}/console/?error=sso_refused`)
    expect(attacker.cookies("localhost:4455").has("roster_session")).toBe(false)
  })

  it("refuses metadata that is not XML, a certificate that is not one, and an http IdP off loopback", async () => {
    const notXml = await world.api.call("POST", "/api/v1/organization/sso", {
      ...inAcme,
      body: { kind: "saml", idpMetadataXml: "this is not <xml" }
    })
    expectProblem(notXml, 400, "validation_failed")
    const noIdp = await world.api.call("POST", "/api/v1/organization/sso", {
      ...inAcme,
      body: {
        kind: "saml",
        idpMetadataXml: '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>'
      }
    })
    expectProblem(noIdp, 400, "validation_failed")
    const notCertificate = await world.api.call("POST", "/api/v1/organization/sso", {
      ...inAcme,
      body: {
        kind: "saml",
        idpEntityId: "https://idp.example.com",
        idpSsoUrl: "https://idp.example.com/sso",
        idpCertificate: "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----"
      }
    })
    expectProblem(notCertificate, 400, "validation_failed")
    const plain = await world.api.call("POST", "/api/v1/organization/sso", {
      ...inAcme,
      body: {
        kind: "saml",
        idpEntityId: "https://idp.example.com",
        idpSsoUrl: "http://idp.example.com/sso",
        idpCertificate: idp.certificate
      }
    })
    expectProblem(plain, 400, "validation_failed")
    const byHand = await world.api.call("POST", "/api/v1/organization/sso", {
      ...inAcme,
      body: {
        kind: "saml",
        idpEntityId: idp.entityId,
        idpSsoUrl: idp.ssoUrl,
        idpCertificate: idp.certificate
      }
    })
    expect(byHand.status, byHand.text).toBe(200)
    await world.api.call("DELETE", `/api/v1/organization/sso/${byHand.body.id}`, inAcme)
  })

  it("answers a posted form that is not a SAML response with the browser sent back, never a 500", async () => {
    const session = browser()
    const started = await session.go(
      `${rosterBase}/api/v1/sso/start?organization=acme&returnTo=${encodeURIComponent(productPage)}`
    )
    const request = idp.requestOf(started.url)
    for (const SAMLResponse of ["not base64 at all!", base64("<not-saml/>"), base64("<<<")]) {
      const ended = await session.go(connection.acsUrl, {
        form: { SAMLResponse, RelayState: request.relayState }
      })
      expect(endedWith(ended), SAMLResponse).toEqual({ error: "sso_refused" })
    }
    const empty = await world.api.call("POST", "/api/v1/sso/saml/acs", {
      rawBody: "",
      headers: { "content-type": "application/x-www-form-urlencoded" }
    })
    expectProblem(empty, 400, "validation_failed")
    void formOf
  })
})
