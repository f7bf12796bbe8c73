import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  AuditLog,
  authenticate,
  CurrentOrganization,
  createSsoConnection,
  DomainStore,
  deleteOrganization,
  exchangeSsoCode,
  MemberStore,
  ReturnRefused,
  SealedSecrets,
  SsoConnectionId,
  SsoConnectionStore,
  SsoLogin,
  SsoLoginStore,
  SsoRefused,
  TokenIssuer,
  updateOrganization,
  updateSsoConnection
} from "../../core/index.ts"
import { master, refusal } from "../support/roster.ts"
import { acmeSso, oidcCallback, outcomeOf, start } from "../support/sso-sign-in.ts"
import { clientSecret, provideSso, returnUrl } from "../support/sso-unit.ts"

const alice = { sub: "alice-at-idp", email: "alice@acme.example" }
const productPage = `${returnUrl}/done?tab=1`

/** The reason a sign-in was refused with. */
const reasonOf = (error: unknown) => {
  assert.instanceOf(error, SsoRefused)
  return (error as SsoRefused).reason
}

describe("starting a single sign-on", () => {
  it.effect("by the organisation's slug or id, through its oldest enabled connection, to the console", () =>
    Effect.gen(function* () {
      const older = yield* createSsoConnection(master, {
        kind: "oidc",
        issuer: "https://idp.example",
        clientId: "default",
        clientSecret: Redacted.make(clientSecret)
      })
      const { organization, oidc, saml, inAcme } = yield* acmeSso
      assert.isTrue((yield* start({ organization: "default" })).redirectTo.includes(older.id))
      const bySlug = yield* start({ organization: "acme" })
      assert.isTrue(bySlug.redirectTo.startsWith(`https://idp.example/${oidc.id}?state=`))
      assert.isAtLeast(bySlug.state.length, 32)
      assert.isAtLeast(bySlug.binding.length, 32)
      assert.notStrictEqual(bySlug.state, bySlug.binding)
      assert.isTrue(bySlug.state.startsWith("rsq_"), "a state's token")
      assert.isTrue(bySlug.binding.startsWith("rsb_"), "a binding's token")
      assert.strictEqual(bySlug.returnTo, "/console/")
      const byId = yield* start({ organization: organization.id })
      assert.notStrictEqual(byId.state, bySlug.state, "each sign-in its own state")
      assert.isTrue(byId.redirectTo.includes(oidc.id))
      yield* inAcme(updateSsoConnection(master, oidc.id, { status: "disabled" }))
      assert.isTrue((yield* start({ organization: "acme" })).redirectTo.includes(saml.id))
      assert.isTrue((yield* start({ connection: saml.id })).redirectTo.includes(saml.id))
      yield* inAcme(updateSsoConnection(master, saml.id, { status: "disabled" }))
      assert.strictEqual(reasonOf(yield* refusal(start({ organization: "acme" }))), "connection")
      assert.strictEqual(reasonOf(yield* refusal(start({ connection: oidc.id }))), "connection")
    }).pipe(provideSso())
  )

  it.effect("by a person's e-mail, through the organisation that verified its domain", () =>
    Effect.gen(function* () {
      yield* createSsoConnection(master, {
        kind: "oidc",
        issuer: "https://idp.example",
        clientId: "default",
        clientSecret: Redacted.make(clientSecret)
      })
      const { oidc } = yield* acmeSso
      const byEmail = yield* start({ email: "Someone@ACME.example" })
      assert.isTrue(byEmail.redirectTo.includes(oidc.id))
      for (const input of [
        { email: "someone@elsewhere.example" },
        { email: "no-at-sign" },
        { email: "acme.example" },
        {},
        { organization: "nowhere" },
        { connection: SsoConnectionId.make("sso-none") }
      ]) {
        assert.strictEqual(reasonOf(yield* refusal(start(input))), "connection")
      }
    }).pipe(provideSso())
  )

  it.effect("returns only to the console or an allowed URL, checked before anything else", () =>
    Effect.gen(function* () {
      yield* acmeSso
      const product = yield* start({ organization: "acme", returnTo: productPage })
      assert.strictEqual(product.returnTo, productPage)
      assert.strictEqual(
        (yield* start({ organization: "acme", returnTo: "/console/members" })).returnTo,
        "/console/members"
      )
      for (const returnTo of ["https://evil.example/", `${returnUrl}.evil.example`, "//evil.example"]) {
        assert.instanceOf(yield* refusal(start({ organization: "acme", returnTo })), ReturnRefused)
        assert.instanceOf(yield* refusal(start({ organization: "nowhere", returnTo })), ReturnRefused)
      }
    }).pipe(provideSso())
  )
})

describe("finishing an OIDC sign-in", () => {
  it.effect("makes the person a member just in time, records it, and opens a console session", () =>
    Effect.gen(function* () {
      const { oidc, organization, memberRole, inAcme } = yield* acmeSso
      const started = yield* start({ organization: "acme" })
      const finished = yield* oidcCallback(started, alice)
      assert.strictEqual(finished.returnTo, "/console/")
      const signedIn = (yield* outcomeOf(finished)) as {
        session: {
          token: Redacted.Redacted<string>
          member: { id: string; username: string; email: string; emailVerified: boolean; roleId: number }
          organization: { id: string }
        }
      }
      const member = signedIn.session.member
      assert.strictEqual(member.username, "alice")
      assert.strictEqual(member.email, "alice@acme.example")
      assert.isTrue(member.emailVerified)
      assert.strictEqual(member.roleId, memberRole.id)
      assert.strictEqual(signedIn.session.organization.id, organization.id)
      const principal = yield* authenticate(Option.some(signedIn.session.token))
      assert.strictEqual(principal._tag === "Member" ? principal.member.id : "", member.id)
      const log = yield* AuditLog
      const [login] = yield* inAcme(log.page({ action: "sso.login" }, 10))
      assert.deepStrictEqual(login?.actor, { kind: "sso", id: oidc.id })
      assert.deepStrictEqual(login?.target, { type: "member", id: member.id })
      assert.deepStrictEqual(login?.changes, { connectionId: [null, oidc.id], justInTime: [null, true] })
      const [added] = yield* inAcme(log.page({ action: "member.added", targetId: member.id }, 10))
      assert.deepStrictEqual(added?.actor, { kind: "sso", id: oidc.id })
      assert.deepStrictEqual(added?.changes.email, [null, "alice@acme.example"])

      const again = yield* outcomeOf(
        yield* oidcCallback(yield* start({ organization: "acme" }), {
          ...alice,
          email: "renamed@acme.example"
        })
      )
      assert.strictEqual(
        (again as typeof signedIn).session.member.id,
        member.id,
        "the identity is linked now"
      )
      const logins = yield* inAcme(log.page({ action: "sso.login" }, 10))
      assert.lengthOf(logins, 2)
      assert.deepStrictEqual(logins[0]?.changes, { connectionId: [null, oidc.id] })
      assert.lengthOf(yield* inAcme(log.page({ action: "member.added", targetId: member.id }, 10)), 1)
    }).pipe(provideSso())
  )

  it.effect("is taken once, by the browser that started it, within ten minutes", () =>
    Effect.gen(function* () {
      yield* acmeSso
      const started = yield* start({ organization: "acme" })
      assert.strictEqual(reasonOf(yield* refusal(oidcCallback(started, alice, "another-browser"))), "state")
      assert.strictEqual(reasonOf(yield* refusal(oidcCallback(started, alice, null))), "state")
      assert.strictEqual(
        reasonOf(yield* refusal(oidcCallback({ ...started, state: "forged" }, alice))),
        "state"
      )
      yield* outcomeOf(yield* oidcCallback(started, alice))
      assert.strictEqual(reasonOf(yield* refusal(oidcCallback(started, alice))), "state", "used once")
      const late = yield* start({ organization: "acme" })
      yield* TestClock.adjust("600 seconds")
      assert.strictEqual(reasonOf(yield* refusal(oidcCallback(late, alice))), "state")
      const inTime = yield* start({ organization: "acme" })
      yield* TestClock.adjust("599 seconds")
      yield* outcomeOf(yield* oidcCallback(inTime, alice))
    }).pipe(provideSso())
  )

  it.effect("tells a refusal after the state's check at the sign-in's returnTo", () =>
    Effect.gen(function* () {
      const { oidc, inAcme } = yield* acmeSso
      const denied = yield* oidcCallback(yield* start({ organization: "acme", returnTo: productPage }), {
        error: "access_denied"
      })
      assert.strictEqual(denied.returnTo, productPage)
      assert.strictEqual(reasonOf(yield* Effect.flip(outcomeOf(denied))), "answer")
      const started = yield* start({ organization: "acme" })
      yield* inAcme(updateSsoConnection(master, oidc.id, { status: "disabled" }))
      const disabled = yield* oidcCallback(started, alice)
      assert.strictEqual(reasonOf(yield* Effect.flip(outcomeOf(disabled))), "connection")
      assert.isTrue(Option.isNone(yield* inAcme((yield* MemberStore).findByLogin("alice@acme.example"))))
    }).pipe(provideSso())
  )

  it.effect("refuses a sign-in recorded for another organisation than its connection's", () =>
    Effect.gen(function* () {
      const { oidc } = yield* acmeSso
      const tokens = yield* TokenIssuer
      const state = yield* tokens.issue("sso_state")
      const binding = yield* tokens.issue("sso_binding")
      const now = yield* DateTime.now
      yield* (yield* SsoLoginStore).begin(
        new SsoLogin({
          stateHash: state.hash,
          bindingHash: binding.hash,
          connectionId: oidc.id,
          organizationId: yield* CurrentOrganization,
          returnTo: "/console/",
          createdAt: now,
          expiresAt: DateTime.addDuration(now, Duration.minutes(10)),
          proven: null
        })
      )
      const finished = yield* oidcCallback(
        {
          state: Redacted.value(state.token),
          binding: Redacted.value(binding.token),
          returnTo: "/console/",
          redirectTo: ""
        },
        alice
      )
      assert.strictEqual(reasonOf(yield* Effect.flip(outcomeOf(finished))), "connection")
    }).pipe(provideSso())
  )
})

describe("a sign-in ending with a code, for a product's back end", () => {
  it.effect("is exchanged once, within a minute, for a session counting as two factors", () =>
    Effect.gen(function* () {
      const { inAcme, organization } = yield* acmeSso
      yield* inAcme(updateOrganization(master, { requireMfa: true }))
      const finished = yield* oidcCallback(
        yield* start({ organization: "acme", returnTo: productPage }),
        alice
      )
      assert.strictEqual(finished.returnTo, productPage)
      const { code } = (yield* outcomeOf(finished)) as { code: Redacted.Redacted<string> }
      assert.isTrue(Redacted.value(code).startsWith("rso_"), "a code's token")
      const session = yield* exchangeSsoCode(code, "192.0.2.1")
      assert.strictEqual(session.member.email, "alice@acme.example")
      assert.strictEqual(session.organization.id, organization.id)
      const principal = yield* authenticate(Option.some(session.token))
      assert.isFalse(
        principal._tag === "Member" && principal.mfaPending === true,
        "the provider proved the factors"
      )
      assert.strictEqual(reasonOf(yield* refusal(exchangeSsoCode(code, "192.0.2.1"))), "state", "used once")
      assert.strictEqual(
        reasonOf(yield* refusal(exchangeSsoCode(Redacted.make("not-a-code"), "192.0.2.1"))),
        "state"
      )
      const late = yield* outcomeOf(
        yield* oidcCallback(yield* start({ organization: "acme", returnTo: productPage }), alice)
      )
      yield* TestClock.adjust("60 seconds")
      assert.strictEqual(
        reasonOf(
          yield* refusal(exchangeSsoCode((late as { code: Redacted.Redacted<string> }).code, "192.0.2.1"))
        ),
        "state"
      )
      const inTime = yield* outcomeOf(
        yield* oidcCallback(yield* start({ organization: "acme", returnTo: productPage }), alice)
      )
      yield* TestClock.adjust("59 seconds")
      yield* exchangeSsoCode((inTime as { code: Redacted.Redacted<string> }).code, "192.0.2.1")
    }).pipe(provideSso())
  )

  it.effect("is refused once the organisation is deleted meanwhile", () =>
    Effect.gen(function* () {
      const { inAcme } = yield* acmeSso
      const { code } = (yield* outcomeOf(
        yield* oidcCallback(yield* start({ organization: "acme", returnTo: productPage }), alice)
      )) as { code: Redacted.Redacted<string> }
      yield* inAcme(deleteOrganization(master))
      assert.strictEqual(reasonOf(yield* refusal(exchangeSsoCode(code, "192.0.2.1"))), "inactive")
    }).pipe(provideSso())
  )

  it.effect(
    "has nothing left of the organisation's domains, connections, links and sealed keys once it is deleted",
    () =>
      Effect.gen(function* () {
        const { inAcme, oidc, saml } = yield* acmeSso
        yield* oidcCallback(yield* start({ organization: "acme", returnTo: productPage }), alice)
        assert.isTrue(Option.isSome(yield* (yield* SsoLoginStore).findIdentity(oidc.id, alice.sub)))
        yield* inAcme(deleteOrganization(master))
        assert.isTrue(Option.isNone(yield* (yield* DomainStore).findVerified("acme.example")), "released")
        const connections = yield* SsoConnectionStore
        assert.isTrue(Option.isNone(yield* connections.findAnywhere(oidc.id)))
        assert.isTrue(Option.isNone(yield* connections.findAnywhere(saml.id)), "its SP key with it")
        assert.isTrue(Option.isNone(yield* (yield* SsoLoginStore).findIdentity(oidc.id, alice.sub)))
        const sealed = yield* (yield* SealedSecrets).page(undefined, 100)
        assert.isFalse(
          sealed.some(({ place }) => place.startsWith("sso_connections")),
          "no secret of its connections is kept"
        )
        assert.strictEqual(
          reasonOf(yield* refusal(start({ email: "alice@acme.example", returnTo: productPage }))),
          "connection",
          "a sign-in for it is refused like one for an organisation nobody knows"
        )
        assert.strictEqual(
          reasonOf(yield* refusal(start({ connection: oidc.id, returnTo: productPage }))),
          "connection"
        )
      }).pipe(provideSso())
  )
})
