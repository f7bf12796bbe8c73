import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { decodeJwt } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createRosterClient, makeRosterClient, ssoSignInUrl } from "../../adapters/http/client.ts"
import { browserSession } from "../support/browser-session.ts"
import { expectProblem, masterKey } from "../support/http.ts"
import { startOidcIdp, type TestOidcIdp } from "../support/oidc-idp.ts"
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

beforeAll(async () => {
  world = await ssoWorld()
  idp = await startOidcIdp(`${rosterBase}/api/v1/sso/oidc/callback`)
  const made = await world.api.call("POST", "/api/v1/organization/sso", {
    ...inAcme,
    body: { kind: "oidc", issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret }
  })
  expect(made.status, made.text).toBe(200)
  connectionId = made.body.id
})

afterAll(async () => {
  await idp?.close()
  await world?.dns.close()
})

const start = (query: string) => `${rosterBase}/api/v1/sso/start?${query}`

describe("single sign-on through an OpenID provider", () => {
  it("answers the connection with what to copy into the IdP, never its secret", async () => {
    const read = await world.api.call("GET", `/api/v1/organization/sso/${connectionId}`, inAcme)
    expect(read.status, read.text).toBe(200)
    expect(read.body).toMatchObject({
      kind: "oidc",
      status: "enabled",
      issuer: idp.issuer,
      clientId: "roster",
      scopes: ["openid", "email", "profile"],
      redirectUri: `${rosterBase}/api/v1/sso/oidc/callback`
    })
    expect(read.text).not.toContain(idp.clientSecret)
  })

  it("signs a person of a verified domain in just in time, with a code a back end exchanges once", async () => {
    idp.accounts.set("grace-sub", { email: "grace@acme.example" })
    const browser = world.browser()
    const started = await browser.go(start(`organization=acme&returnTo=${encodeURIComponent(productPage)}`))
    expect(started.url.startsWith(idp.issuer), started.url).toBe(true)
    expect(browser.cookies("localhost:4455").has("roster_sso")).toBe(true)
    const ended = await signInAtOidc(browser, started, idp.issuer, "grace-sub")
    expect(ended.url.startsWith(productPage), ended.url).toBe(true)
    const { code } = endedWith(ended)
    expect(code).toMatch(/^rso_/)
    const exchanged = await world.api.call("POST", "/api/v1/sso/token", { body: { code } })
    expect(exchanged.status, exchanged.text).toBe(200)
    expect(exchanged.body.member).toMatchObject({
      email: "grace@acme.example",
      roleId: world.memberRoleId,
      emailVerified: true
    })
    expect(exchanged.body.organization.slug).toBe("acme")
    const me = await world.api.call("GET", "/api/v1/auth/me", { token: exchanged.body.token })
    expect(me.status, me.text).toBe(200)
    const token = await world.api.call("POST", "/api/v1/auth/token", { token: exchanged.body.token })
    expect(token.status, token.text).toBe(200)
    expect(decodeJwt(token.body.accessToken), "its access token says single sign-on").toMatchObject({
      amr: ["sso"],
      org_slug: "acme"
    })
    const byPassword = await world.api.call("POST", "/api/v1/auth/login", {
      body: {
        username: exchanged.body.member.username,
        password: "any password at all",
        organization: "acme"
      }
    })
    expectProblem(byPassword, 401, "unauthorized")
    const again = await world.api.call("POST", "/api/v1/sso/token", { body: { code } })
    expectProblem(again, 403, "sso_refused")
    const audit = await world.api.call("GET", "/api/v1/audit/events?action=sso.login", inAcme)
    expect(audit.body[0]).toMatchObject({
      actor: { kind: "sso", id: connectionId },
      target: { id: exchanged.body.member.id }
    })
    const added = await world.api.call("GET", "/api/v1/audit/events?action=member.added", inAcme)
    expect(added.body[0].actor).toEqual({ kind: "sso", id: connectionId })
  })

  it("signs the same identity in as the same member the next time, found by (connection, subject)", async () => {
    idp.accounts.set("grace-sub", { email: "grace.renamed@acme.example" })
    const browser = world.browser()
    const ended = await signInAtOidc(
      browser,
      await browser.go(start(`organization=acme&returnTo=${encodeURIComponent(productPage)}`)),
      idp.issuer,
      "grace-sub"
    )
    const exchanged = await world.api.call("POST", "/api/v1/sso/token", {
      body: { code: endedWith(ended).code }
    })
    expect(exchanged.body.member.email, "an e-mail changed at the IdP does not make another account").toBe(
      "grace@acme.example"
    )
  })

  it("starts by a person's e-mail, through the organisation that verified its domain, and sets the console's cookie", async () => {
    idp.accounts.set("alan-sub", { email: "alan@acme.example" })
    const browser = world.browser()
    const started = await browser.go(start(`email=${encodeURIComponent("alan@acme.example")}`))
    const ended = await signInAtOidc(browser, started, idp.issuer, "alan-sub")
    expect(ended.url).toBe(`${rosterBase}/console/`)
    const session = browser.cookies("localhost:4455").get("roster_session")
    expect(session).toMatch(/^rss_/)
    expect(browser.cookies("localhost:4455").has("roster_sso"), "the binding is spent").toBe(false)
    const me = await world.api.call("GET", "/api/v1/auth/me", { token: session ?? "" })
    expect(me.body.member.email).toBe("alan@acme.example")
    const token = await world.api.call("POST", "/api/v1/auth/token", { token: session ?? "" })
    expect(decodeJwt(token.body.accessToken).amr).toEqual(["sso"])
  })

  it("refuses an e-mail outside the organisation's verified domains, and makes nobody", async () => {
    idp.accounts.set("mallory-sub", { email: "mallory@elsewhere.example" })
    const before = await world.api.call("GET", "/api/v1/team/members", inAcme)
    const browser = world.browser()
    const ended = await signInAtOidc(
      browser,
      await browser.go(start(`organization=acme&returnTo=${encodeURIComponent(productPage)}`)),
      idp.issuer,
      "mallory-sub"
    )
    expect(endedWith(ended)).toEqual({ error: "sso_refused" })
    const after = await world.api.call("GET", "/api/v1/team/members", inAcme)
    expect(after.body.length).toBe(before.body.length)
  })

  it("never links an existing account by its e-mail: sso_account_conflict, until an administrator links it", async () => {
    const made = await world.api.call("POST", "/api/v1/team/add", {
      ...inAcme,
      body: {
        username: "hopper",
        email: "hopper@acme.example",
        password: "correct horse battery staple",
        activestatus: true,
        roleId: world.memberRoleId
      }
    })
    expect(made.status, made.text).toBe(200)
    idp.accounts.set("hopper-sub", { email: "hopper@acme.example" })
    const browser = world.browser()
    const refused = await signInAtOidc(
      browser,
      await browser.go(start(`organization=acme&returnTo=${encodeURIComponent(productPage)}`)),
      idp.issuer,
      "hopper-sub"
    )
    expect(endedWith(refused)).toEqual({ error: "sso_account_conflict" })
    const linked = await world.api.call("POST", `/api/v1/team/members/${made.body.id}/sso-link`, {
      ...inAcme,
      body: { connectionId, subject: "hopper-sub" }
    })
    expect(linked.status, linked.text).toBe(200)
    const second = world.browser()
    const ended = await signInAtOidc(
      second,
      await second.go(start(`organization=acme&returnTo=${encodeURIComponent(productPage)}`)),
      idp.issuer,
      "hopper-sub"
    )
    const exchanged = await world.api.call("POST", "/api/v1/sso/token", {
      body: { code: endedWith(ended).code }
    })
    expect(exchanged.body.member.id).toBe(made.body.id)
  })

  it("refuses a callback in another browser than the one that started, and a state used twice", async () => {
    idp.accounts.set("ada-sub", { email: "ada@acme.example" })
    let callback: string | undefined
    // The victim's browser stops at Roster's callback: an attacker has its URL (state and code).
    const victim = browserSession({
      [rosterBase]: async (request) => {
        if (request.url.startsWith(`${rosterBase}/api/v1/sso/oidc/callback`)) {
          callback = request.url
          return new Response("held", { status: 200 })
        }
        return world.api.web.handler(request, { remoteAddress: "198.51.100.7" })
      }
    })
    await signInAtOidc(
      victim,
      await victim.go(start(`organization=acme&returnTo=${encodeURIComponent(productPage)}`)),
      idp.issuer,
      "ada-sub"
    )
    expect(callback).toBeDefined()
    const attacker = world.browser()
    const stolen = await attacker.go(callback ?? "")
    expect(stolen.url).toBe(`${rosterBase}/console/?error=sso_refused`)
    expect(attacker.cookies("localhost:4455").has("roster_session")).toBe(false)
    const forged = await world.api.call(
      "GET",
      `/api/v1/sso/oidc/callback?${new URL(callback ?? "").search.slice(1)}`,
      {
        headers: { cookie: "roster_sso=rsb_guessed" }
      }
    )
    expect(forged.headers.get("location")).toBe(`${rosterBase}/console/?error=sso_refused`)
    const owner = world.browser()
    const binding = victim.cookies("localhost:4455").get("roster_sso") ?? ""
    const answer = await world.api.web.handler(
      new Request(callback ?? "", { headers: { cookie: `roster_sso=${binding}` } }),
      { remoteAddress: "198.51.100.7" }
    )
    expect(answer.headers.get("location") ?? "", "the browser that started completes it").toMatch(
      /^https:\/\/app\.example\.com\/sso\/done\?code=rso_/
    )
    const replayed = await world.api.web.handler(
      new Request(callback ?? "", { headers: { cookie: `roster_sso=${binding}` } }),
      { remoteAddress: "198.51.100.7" }
    )
    expect(replayed.headers.get("location")).toBe(`${rosterBase}/console/?error=sso_refused`)
    void owner
  })

  it("refuses a wrong nonce's or code's answer: a code the IdP never issued is sso_refused, and nobody signs in", async () => {
    idp.accounts.set("eve-sub", { email: "eve@acme.example" })
    let callback: string | undefined
    const browser = browserSession({
      [rosterBase]: async (request) => {
        if (request.url.startsWith(`${rosterBase}/api/v1/sso/oidc/callback`)) {
          callback = request.url
          const forgedCode = new URL(request.url)
          forgedCode.searchParams.set("code", "forged-code")
          return world.api.web.handler(new Request(forgedCode, { headers: request.headers }), {
            remoteAddress: "198.51.100.7"
          })
        }
        return world.api.web.handler(request, { remoteAddress: "198.51.100.7" })
      },
      "https://app.example.com": async () => new Response("product")
    })
    const ended = await signInAtOidc(
      browser,
      await browser.go(start(`organization=acme&returnTo=${encodeURIComponent(productPage)}`)),
      idp.issuer,
      "eve-sub"
    )
    expect(callback).toBeDefined()
    expect(endedWith(ended)).toEqual({ error: "sso_refused" })
    const members = await world.api.call("GET", "/api/v1/team/members?q=eve", inAcme)
    expect(members.body).toEqual([])
  })

  it("sends the browser back with a clear error when the provider is down, never a 500; a disabled connection signs nobody in", async () => {
    const other = await startOidcIdp(`${rosterBase}/api/v1/sso/oidc/callback`)
    const made = await world.api.call("POST", "/api/v1/organization/sso", {
      ...inAcme,
      body: { kind: "oidc", issuer: other.issuer, clientId: other.clientId, clientSecret: other.clientSecret }
    })
    expect(made.status, made.text).toBe(200)
    await other.close()
    const down = await world
      .browser()
      .go(start(`connection=${made.body.id}&returnTo=${encodeURIComponent(productPage)}`))
    expect(endedWith(down)).toEqual({ error: "idp_unavailable" })
    const unknownIssuer = await world.api.call("POST", "/api/v1/organization/sso", {
      ...inAcme,
      body: { kind: "oidc", issuer: other.issuer, clientId: "roster", clientSecret: "whatever" }
    })
    expectProblem(unknownIssuer, 400, "validation_failed")
    const patched = await world.api.call("PATCH", `/api/v1/organization/sso/${made.body.id}`, {
      ...inAcme,
      body: { status: "disabled" }
    })
    expect(patched.body.status).toBe("disabled")
    const disabled = await world
      .browser()
      .go(start(`connection=${made.body.id}&returnTo=${encodeURIComponent(productPage)}`))
    expect(endedWith(disabled)).toEqual({ error: "sso_refused" })
  })

  it("is started and finished by both clients: the start URL a browser goes to, the code a back end exchanges", async () => {
    idp.accounts.set("client-sub", { email: "client@acme.example" })
    const handlerFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      world.api.web.handler(new Request(input, init), {
        remoteAddress: "192.0.2.7"
      })) as typeof globalThis.fetch
    const url = ssoSignInUrl(rosterBase, { organization: "acme", returnTo: productPage })
    expect(url).toBe(
      `${rosterBase}/api/v1/sso/start?organization=acme&returnTo=${encodeURIComponent(productPage)}`
    )
    const signIn = async () => {
      const browser = world.browser()
      return (
        endedWith(await signInAtOidc(browser, await browser.go(url), idp.issuer, "client-sub")).code ?? ""
      )
    }
    const roster = createRosterClient({ baseUrl: rosterBase, fetch: handlerFetch })
    const session = await roster.ssoSignIn.exchangeSsoCode({ code: await signIn() })
    expect(session.member.email).toBe("client@acme.example")
    await expect(roster.ssoSignIn.exchangeSsoCode({ code: "rso_unknown" })).rejects.toMatchObject({
      status: 403,
      code: "sso_refused"
    })
    const code = await signIn()
    const typed = await Effect.runPromise(
      Effect.gen(function* () {
        const client = yield* makeRosterClient({ baseUrl: rosterBase })
        const answer = yield* client.ssoSignIn.exchangeSsoCode({ payload: { code } })
        const again = yield* Effect.flip(client.ssoSignIn.exchangeSsoCode({ payload: { code } }))
        return { email: answer.member.email, again: again._tag }
      }).pipe(
        Effect.provide(FetchHttpClient.layer),
        Effect.provideService(FetchHttpClient.Fetch, handlerFetch)
      )
    )
    expect(typed).toEqual({ email: "client@acme.example", again: "SsoRefused" })
  })

  it("refuses a returnTo that is neither the console nor an allowed URL, before anything", async () => {
    const answer = await world.api.call(
      "GET",
      "/api/v1/sso/start?organization=acme&returnTo=https%3A%2F%2Fapp.example.com.evil.test%2F"
    )
    expectProblem(answer, 400, "validation_failed")
    const scheme = await world.api.call(
      "GET",
      "/api/v1/sso/start?organization=acme&returnTo=%2F%2Fevil.test%2Fconsole"
    )
    expectProblem(scheme, 400, "validation_failed")
  })

  it("keeps the client secret sealed: another organisation's key cannot read the connection", async () => {
    const other = await world.api.call("GET", `/api/v1/organization/sso/${connectionId}`, {
      token: masterKey
    })
    expectProblem(other, 404, "not_found")
  })
})
