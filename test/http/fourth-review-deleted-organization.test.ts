// Hole 5 of the fourth outside review, played again over HTTP: a deleted organisation kept its
// domains and its single sign-on connections. Once it is deleted nothing of them answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { masterKey, password } from "../support/http.ts"
import { samlIdp } from "../support/saml-idp.ts"
import { inAcme, productPage, type SsoWorld, ssoWorld, verifiedDomain } from "../support/sso.ts"

let world: SsoWorld
const inGlobex = { token: masterKey, headers: { "roster-organization": "globex" } }

beforeAll(async () => {
  world = await ssoWorld()
})

afterAll(async () => {
  await world?.dns.close()
})

const start = (query: string) =>
  world.api.call("GET", `/api/v1/sso/start?${query}&returnTo=${encodeURIComponent(productPage)}`)
const answerOf = (answer: { status: number; headers: Headers; text: string }) => ({
  status: answer.status,
  location: answer.headers.get("location"),
  text: answer.text
})

describe("hole 5: a deleted organisation's domains and connections", () => {
  it("go with it: its domain is free to verify at once, and a sign-in through it answers like an unknown organisation's", async () => {
    const made = await world.api.call("POST", "/api/v1/organizations", {
      token: masterKey,
      body: { name: "Globex", slug: "globex" }
    })
    expect(made.status, made.text).toBe(200)
    await verifiedDomain(world.api, world.dns, "globex.example", inGlobex)
    const idp = await samlIdp()
    const connection = await world.api.call("POST", "/api/v1/organization/sso", {
      ...inGlobex,
      body: { kind: "saml", idpMetadataXml: idp.metadata }
    })
    expect(connection.status, connection.text).toBe(200)
    const hank = await world.api.call("POST", "/api/v1/team/add", {
      ...inGlobex,
      body: {
        username: "hank",
        email: "hank@globex.example",
        password,
        activestatus: true,
        roleId: made.body.ownerRoleId
      }
    })
    const linked = await world.api.call("POST", `/api/v1/team/members/${hank.body.id}/sso-link`, {
      ...inGlobex,
      body: { connectionId: connection.body.id, subject: "hank-sub" }
    })
    expect(linked.status, linked.text).toBe(200)
    const before = await start("email=hank@globex.example")
    expect(before.headers.get("location")?.startsWith(idp.ssoUrl), before.text).toBe(true)

    const deleted = await world.api.call("DELETE", "/api/v1/organization", inGlobex)
    expect(deleted.status, deleted.text).toBe(200)

    const unknown = answerOf(await start("organization=nosuch"))
    expect(unknown.location?.startsWith(idp.ssoUrl)).toBe(false)
    expect(answerOf(await start("organization=globex"))).toEqual(unknown)
    expect(answerOf(await start("email=hank@globex.example"))).toEqual(unknown)
    expect(answerOf(await start(`connection=${connection.body.id}`))).toEqual(unknown)
    const metadata = await world.api.call("GET", `/api/v1/sso/saml/${connection.body.id}/metadata`)
    expect(metadata.status, "its SP key is gone with it").toBe(404)
    const claimed = await verifiedDomain(world.api, world.dns, "globex.example", inAcme)
    expect(claimed.status, "released at once for another organisation to verify").toBe("verified")
  })
})
