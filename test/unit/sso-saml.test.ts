import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { AuditLog, SsoLoginStore, SsoRefused, updateSsoConnection } from "../../core/index.ts"
import { master, refusal } from "../support/roster.ts"
import { acmeSso, outcomeOf, samlPost, samlReturn, start } from "../support/sso-sign-in.ts"
import { provideSso } from "../support/sso-unit.ts"

const bob = { subject: "bob-name-id", email: "bob@acme.example" }
const assertion = (id: string, answersRequest = true) => ({ id, expiresAt: 3_600_000, answersRequest })

const reasonOf = (error: unknown) => {
  assert.instanceOf(error, SsoRefused)
  return (error as SsoRefused).reason
}

describe("a SAML sign-in", () => {
  it.effect("is proven by the posted response, then completed by the browser with its cookie", () =>
    Effect.gen(function* () {
      const { saml, inAcme } = yield* acmeSso
      const started = yield* start({ connection: saml.id })
      assert.isTrue(started.redirectTo.startsWith(`https://idp.example/${saml.id}?state=`))
      const posted = yield* samlPost(started, { ...bob, assertion: assertion("assertion-1") })
      assert.strictEqual(posted.returnTo, "/console/")
      yield* outcomeOf(posted)
      assert.strictEqual(reasonOf(yield* refusal(samlReturn(started, "another-browser"))), "state")
      assert.strictEqual(reasonOf(yield* refusal(samlReturn(started, null))), "state")
      const finished = yield* samlReturn(started)
      const { session } = (yield* outcomeOf(finished)) as {
        session: { member: { email: string; id: string } }
      }
      assert.strictEqual(session.member.email, "bob@acme.example")
      const [login] = yield* inAcme((yield* AuditLog).page({ action: "sso.login" }, 10))
      assert.deepStrictEqual(login?.actor, { kind: "sso", id: saml.id })
      assert.strictEqual(reasonOf(yield* refusal(samlReturn(started))), "state", "taken once")
    }).pipe(provideSso())
  )

  it.effect("accepts an assertion once, whichever sign-in it is posted to", () =>
    Effect.gen(function* () {
      const { saml } = yield* acmeSso
      const first = yield* start({ connection: saml.id })
      yield* outcomeOf(yield* samlPost(first, { ...bob, assertion: assertion("assertion-2") }))
      const second = yield* start({ connection: saml.id })
      const replayed = yield* samlPost(second, { ...bob, assertion: assertion("assertion-2") })
      assert.strictEqual(reasonOf(yield* Effect.flip(outcomeOf(replayed))), "replayed")
      assert.strictEqual(
        reasonOf(yield* Effect.flip(outcomeOf(yield* samlReturn(second)))),
        "state",
        "nothing was proven for it"
      )
      const third = yield* start({ connection: saml.id })
      yield* outcomeOf(yield* samlPost(third, { ...bob, assertion: assertion("assertion-3") }))
      yield* outcomeOf(yield* samlReturn(third))
    }).pipe(provideSso())
  )

  it.effect("refuses an assertion that answers no request of the sign-in, and spends it all the same", () =>
    Effect.gen(function* () {
      const { saml } = yield* acmeSso
      const first = yield* start({ connection: saml.id })
      const unsolicited = yield* samlPost(first, { ...bob, assertion: assertion("assertion-idp", false) })
      assert.strictEqual(reasonOf(yield* Effect.flip(outcomeOf(unsolicited))), "unsolicited")
      assert.strictEqual(
        reasonOf(yield* Effect.flip(outcomeOf(yield* samlReturn(first)))),
        "state",
        "nothing was proven for it"
      )
      const second = yield* start({ connection: saml.id })
      const answering = yield* samlPost(second, { ...bob, assertion: assertion("assertion-idp") })
      assert.strictEqual(reasonOf(yield* Effect.flip(outcomeOf(answering))), "replayed")
    }).pipe(provideSso())
  )

  it.effect("is proven once: a second response to the same sign-in is refused, keeping the first", () =>
    Effect.gen(function* () {
      const { saml } = yield* acmeSso
      const started = yield* start({ connection: saml.id })
      yield* outcomeOf(yield* samlPost(started, bob))
      const other = yield* samlPost(started, {
        subject: "mallory",
        email: "mallory@acme.example",
        assertion: assertion("assertion-late")
      })
      assert.strictEqual(reasonOf(yield* Effect.flip(outcomeOf(other))), "state")
      const { session } = (yield* outcomeOf(yield* samlReturn(started))) as {
        session: { member: { email: string } }
      }
      assert.strictEqual(session.member.email, "bob@acme.example")
      const fresh = yield* start({ connection: saml.id })
      yield* outcomeOf(yield* samlPost(fresh, { ...bob, assertion: assertion("assertion-late") }))
      assert.isDefined(
        yield* outcomeOf(yield* samlReturn(fresh)),
        "the refused response's assertion was not spent"
      )
    }).pipe(provideSso())
  )

  it.effect("refuses a response for another sign-in, an expired one, or through a disabled connection", () =>
    Effect.gen(function* () {
      const { saml, inAcme } = yield* acmeSso
      const started = yield* start({ connection: saml.id, returnTo: "/console/sso" })
      const forged = yield* samlPost(started, bob, "another-state")
      assert.strictEqual(forged.returnTo, "/console/sso")
      assert.strictEqual(reasonOf(yield* Effect.flip(outcomeOf(forged))), "answer")
      assert.strictEqual(reasonOf(yield* refusal(samlPost({ ...started, state: "unknown" }, bob))), "state")
      const late = yield* start({ connection: saml.id })
      yield* TestClock.adjust("10 minutes")
      assert.strictEqual(reasonOf(yield* refusal(samlPost(late, bob))), "state")
      const disabled = yield* start({ connection: saml.id })
      yield* inAcme(updateSsoConnection(master, saml.id, { status: "disabled" }))
      assert.strictEqual(
        reasonOf(yield* Effect.flip(outcomeOf(yield* samlPost(disabled, bob)))),
        "connection"
      )
    }).pipe(provideSso())
  )

  it.effect("proven, is refused when the connection is disabled before the browser returns", () =>
    Effect.gen(function* () {
      const { saml, inAcme } = yield* acmeSso
      const started = yield* start({ connection: saml.id })
      yield* outcomeOf(yield* samlPost(started, bob))
      yield* inAcme(updateSsoConnection(master, saml.id, { status: "disabled" }))
      assert.strictEqual(reasonOf(yield* Effect.flip(outcomeOf(yield* samlReturn(started)))), "connection")
    }).pipe(provideSso())
  )

  it.effect("is refused when another response proved the sign-in meanwhile", () =>
    Effect.gen(function* () {
      const { saml } = yield* acmeSso
      const store = yield* SsoLoginStore
      const started = yield* start({ connection: saml.id })
      const racing = SsoLoginStore.of({ ...store, prove: () => Effect.succeed(Option.none()) })
      const posted = yield* samlPost(started, bob).pipe(Effect.provideService(SsoLoginStore, racing))
      assert.strictEqual(reasonOf(yield* Effect.flip(outcomeOf(posted))), "state")
    }).pipe(provideSso())
  )
})
