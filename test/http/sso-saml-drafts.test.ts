import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createRosterClient, makeRosterClient } from "../../adapters/http/client.ts"
import { browserSession } from "../support/browser-session.ts"
import { expectProblem, masterKey } from "../support/http.ts"
import { samlIdp, type TestSamlIdp } from "../support/saml-idp.ts"
import { endedWith, inAcme, productPage, rosterBase, type SsoWorld, ssoWorld } from "../support/sso.ts"

let world: SsoWorld
let idp: TestSamlIdp

beforeAll(async () => {
  world = await ssoWorld()
  idp = await samlIdp()
})

afterAll(async () => {
  await world?.dns.close()
})

/** A browser that stops at the IdP's sign-in page: the test answers for the IdP. */
const browser = () =>
  browserSession({
    [rosterBase]: (request) => world.api.web.handler(request, { remoteAddress: "198.51.100.9" }),
    "https://idp.test": async () => new Response("the IdP's sign-in page"),
    "https://app.example.com": async () => new Response("the product's page")
  })

const draft = async (body: Record<string, unknown> = { kind: "saml" }) => {
  const made = await world.api.call("POST", "/api/v1/organization/sso", { ...inAcme, body })
  expect(made.status, made.text).toBe(200)
  return made.body as { id: string; spEntityId: string; acsUrl: string; status: string }
}
const patch = (id: string, body: Record<string, unknown>) =>
  world.api.call("PATCH", `/api/v1/organization/sso/${id}`, { ...inAcme, body })
const startAt = (id: string) =>
  world
    .browser()
    .go(`${rosterBase}/api/v1/sso/start?connection=${id}&returnTo=${encodeURIComponent(productPage)}`)

describe("a SAML connection made as a draft", () => {
  it("answers at once the SP values to copy into the IdP, and serves the SP metadata", async () => {
    const made = await draft({ kind: "saml", name: "Okta" })
    expect(made).toMatchObject({
      kind: "saml",
      name: "Okta",
      status: "draft",
      spEntityId: `${rosterBase}/api/v1/sso/saml/${made.id}/metadata`,
      spMetadataUrl: `${rosterBase}/api/v1/sso/saml/${made.id}/metadata`,
      acsUrl: `${rosterBase}/api/v1/sso/saml/acs`,
      spCertificate: expect.stringMatching(/^-----BEGIN CERTIFICATE-----\n/u)
    })
    expect(made).not.toHaveProperty("idpEntityId")
    const metadata = await world.api.call("GET", `/api/v1/sso/saml/${made.id}/metadata`)
    expect(metadata.status).toBe(200)
    expect(metadata.headers.get("content-type")).toContain("application/samlmetadata+xml")
    expect(metadata.text).toContain(`entityID="${made.spEntityId}"`)
    expect(metadata.text).toContain(`Location="${made.acsUrl}"`)
    expect(metadata.text).toContain("X509Certificate")
    expect(metadata.text).toContain('AuthnRequestsSigned="true"')
    const listed = await world.api.call("GET", "/api/v1/organization/sso", inAcme)
    expect(listed.body.find(({ id }: { id: string }) => id === made.id)?.status).toBe("draft")
  })

  it("signs nobody in: the start sends the browser back with sso_refused, as for a disabled one", async () => {
    const made = await draft()
    expect(endedWith(await startAt(made.id))).toEqual({ error: "sso_refused" })
    const byOrganization = await world
      .browser()
      .go(`${rosterBase}/api/v1/sso/start?organization=acme&returnTo=${encodeURIComponent(productPage)}`)
    expect(endedWith(byOrganization)).toEqual({ error: "sso_refused" })
  })

  it("refuses an IdP set in part (422 idp_incomplete), and malformed input (400), never a 500", async () => {
    const made = await draft()
    const partial = expectProblem(await patch(made.id, { idpEntityId: idp.entityId }), 422, "idp_incomplete")
    expect(partial.missing).toEqual(["idpSsoUrl", "idpCertificate"])
    const enabling = expectProblem(await patch(made.id, { status: "enabled" }), 422, "idp_incomplete")
    expect(enabling.missing).toEqual(["idpEntityId", "idpSsoUrl", "idpCertificate"])
    for (const body of [
      { status: "draft" },
      { idpEntityId: "" },
      { idpEntityId: 7 },
      { idpSsoUrl: "ftp://x" }
    ]) {
      expectProblem(await patch(made.id, body), 400, "validation_failed")
    }
    const notCertificate = { idpEntityId: idp.entityId, idpSsoUrl: idp.ssoUrl, idpCertificate: "not one" }
    expectProblem(await patch(made.id, notCertificate), 400, "validation_failed")
    for (const body of [
      { kind: "saml", idpEntityId: idp.entityId },
      { kind: "saml", idpSsoUrl: idp.ssoUrl, idpCertificate: idp.certificate },
      { kind: "saml", status: "draft" },
      { kind: "saml", name: "" }
    ]) {
      const answer = await world.api.call("POST", "/api/v1/organization/sso", { ...inAcme, body })
      expectProblem(answer, 400, "validation_failed")
    }
    const kept = await world.api.call("GET", `/api/v1/organization/sso/${made.id}`, inAcme)
    expect(kept.body.status).toBe("draft")
  })

  it("is enabled by a PATCH of its whole IdP, by hand, and then signs people in", async () => {
    const made = await draft()
    const set = await patch(made.id, {
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      idpCertificate: idp.certificate
    })
    expect(set.status, set.text).toBe(200)
    expect(set.body).toMatchObject({ status: "enabled", idpEntityId: idp.entityId, idpSsoUrl: idp.ssoUrl })
    expect(set.body.spEntityId).toBe(made.spEntityId)
    const session = browser()
    const started = await session.go(
      `${rosterBase}/api/v1/sso/start?connection=${made.id}&returnTo=${encodeURIComponent(productPage)}`
    )
    expect(started.url.startsWith(idp.ssoUrl), started.url).toBe(true)
    const request = idp.requestOf(started.url)
    const response = await idp.respond(
      { spEntityId: made.spEntityId, acsUrl: made.acsUrl, requestId: request.id },
      { nameId: "n-draft", email: "draft.saml@acme.example" }
    )
    const ended = await session.go(made.acsUrl, {
      form: { SAMLResponse: response, RelayState: request.relayState }
    })
    expect(endedWith(ended).code, ended.url).toMatch(/^rso_/)
    await patch(made.id, { status: "disabled" })
  })

  it("is made and set by both clients, by the IdP's metadata", async () => {
    const handlerFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      world.api.web.handler(new Request(input, init), { remoteAddress: "192.0.2.8" })) as typeof fetch
    const roster = createRosterClient({
      baseUrl: rosterBase,
      token: masterKey,
      organization: "acme",
      fetch: handlerFetch
    })
    const made = await roster.sso.createSsoConnection({ kind: "saml", name: "By the client" })
    expect(made.status).toBe("draft")
    await expect(
      roster.sso.updateSsoConnection({ id: made.id, idpSsoUrl: idp.ssoUrl })
    ).rejects.toMatchObject({
      status: 422,
      code: "idp_incomplete"
    })
    const set = await roster.sso.updateSsoConnection({ id: made.id, idpMetadataXml: idp.metadata })
    expect([set.status, set.idpEntityId]).toEqual(["enabled", idp.entityId])
    const typed = await Effect.runPromise(
      Effect.gen(function* () {
        const client = yield* makeRosterClient({
          baseUrl: rosterBase,
          token: masterKey,
          organization: "acme"
        })
        const other = yield* client.sso.createSsoConnection({ payload: { kind: "saml" } })
        const refused = yield* Effect.flip(
          client.sso.updateSsoConnection({ params: { id: other.id }, payload: { status: "enabled" } })
        )
        const enabled = yield* client.sso.updateSsoConnection({
          params: { id: other.id },
          payload: { idpMetadataXml: idp.metadata, status: "disabled" }
        })
        return { made: other.status, refused: refused._tag, set: enabled.status }
      }).pipe(
        Effect.provide(FetchHttpClient.layer),
        Effect.provideService(FetchHttpClient.Fetch, handlerFetch)
      )
    )
    expect(typed).toEqual({ made: "draft", refused: "IdpIncomplete", set: "disabled" })
    await roster.sso.updateSsoConnection({ id: made.id, status: "disabled" })
  })
})
