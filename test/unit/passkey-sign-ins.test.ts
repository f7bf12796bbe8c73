import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  AuditLog,
  addDomain,
  authenticate,
  CurrentOrganization,
  createOrganization,
  InvalidCredentials,
  logIn,
  MemberStore,
  MfaInvalid,
  OrganizationStore,
  PasskeyStore,
  RateLimited,
  SsoRequired,
  secondStepPasskeyOptions,
  setAccountStatus,
  signInWithPasskey,
  updateMember,
  updateOrganization,
  verifyDomain,
  verifyMfa
} from "../../core/index.ts"
import { theEntryOf } from "../support/audit.ts"
import { actorWith, master, password, provideRoster, refusal } from "../support/roster.ts"
import { addPasskey, fakeWebAuthn, provideWebAuthn, signInAnswer } from "../support/webauthn-unit.ts"

const client = "192.0.2.44"
const laptop = "credential-laptop-0001"
const signIn = (answer: { challengeId: string; response: Record<string, unknown> }) =>
  signInWithPasskey({ ...answer, client })

/** Ada, signed in, with a passkey (`laptop`). */
const adaWithPasskey = Effect.gen(function* () {
  const ada = yield* actorWith("ada", [])
  yield* addPasskey(ada.principal, laptop)
  return ada
})

const passwordLogIn = (username: string, text = password) =>
  logIn({ username, password: Redacted.make(text), client })

describe("signing in with a passkey", () => {
  it.effect("opens a session, recorded as a login by passkey, counting as two factors", () =>
    Effect.gen(function* () {
      yield* updateOrganization(master, { requireMfa: true })
      const ada = yield* adaWithPasskey
      const { result: session, entry } = yield* theEntryOf(
        signIn(yield* signInAnswer(laptop, ada.member.id, { counter: 0 }))
      )
      assert.strictEqual(session.member.id, ada.member.id)
      assert.strictEqual(entry.action, "auth.login")
      assert.strictEqual(entry.method, "passkey")
      assert.deepStrictEqual(entry.actor, { kind: "member", id: ada.member.id })
      assert.deepStrictEqual(entry.target, { type: "member", id: ada.member.id })
      const principal = yield* authenticate(Option.some(session.token))
      assert.isFalse(principal._tag === "Member" && principal.mfaPending === true)
    }).pipe(provideWebAuthn())
  )

  it.effect(
    "takes counters that stay zero, or grow; one that does not grow is a clone's, recorded where she is a member",
    () =>
      Effect.gen(function* () {
        const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
        const inAcme = <A, E, R>(self: Effect.Effect<A, E, R>) =>
          Effect.provideService(self, CurrentOrganization, acme.id)
        const ada = yield* inAcme(adaWithPasskey)
        for (let use = 0; use < 2; use++)
          yield* signIn(yield* signInAnswer(laptop, ada.member.id, { counter: 0 }))
        yield* signIn(yield* signInAnswer(laptop, ada.member.id, { counter: 4 }))
        const used = Option.getOrThrow(yield* (yield* PasskeyStore).find(laptop as never))
        assert.strictEqual(used.counter, 4)
        assert.isNotNull(used.lastUsedAt)
        const clone = yield* refusal(signIn(yield* signInAnswer(laptop, ada.member.id, { counter: 4 })))
        assert.instanceOf(clone, InvalidCredentials)
        const [entry] = yield* inAcme((yield* AuditLog).page({ action: "passkey.clone_suspected" }, 10))
        assert.deepStrictEqual(entry?.actor, { kind: "system" })
        assert.deepStrictEqual(entry?.target, { type: "member", id: ada.member.id })
        assert.deepStrictEqual(entry?.changes, { passkey: ["Laptop", "Laptop"], counter: [4, 4] })
        assert.lengthOf(
          yield* (yield* AuditLog).page({ action: "passkey.clone_suspected" }, 10),
          0,
          "not the default organisation's"
        )
        assert.isTrue("token" in (yield* passwordLogIn("ada")), "a suspended passkey is no second factor")
      }).pipe(provideWebAuthn())
  )

  it.effect(
    "records a clone of an account with no membership left in the default organisation's record",
    () =>
      Effect.gen(function* () {
        const ada = yield* adaWithPasskey
        yield* signIn(yield* signInAnswer(laptop, ada.member.id, { counter: 3 }))
        const members = yield* MemberStore
        const none = MemberStore.of({ ...members, membershipsOf: () => Effect.succeed([]) })
        const clone = yield* signInAnswer(laptop, ada.member.id, { counter: 3 })
        assert.instanceOf(
          yield* refusal(signIn(clone).pipe(Effect.provideService(MemberStore, none))),
          InvalidCredentials
        )
        const [entry] = yield* (yield* AuditLog).page({ action: "passkey.clone_suspected" }, 10)
        assert.deepStrictEqual(entry?.target, { type: "member", id: ada.member.id })
        assert.isTrue(Option.getOrThrow(yield* (yield* PasskeyStore).find(laptop as never)).suspended)
      }).pipe(provideWebAuthn())
  )

  it.effect("counts as two factors even when the account's passkeys are read as none meanwhile", () =>
    Effect.gen(function* () {
      yield* updateOrganization(master, { requireMfa: true })
      const ada = yield* adaWithPasskey
      const store = yield* PasskeyStore
      const unread = PasskeyStore.of({ ...store, ofAccount: () => Effect.succeed([]) })
      const session = yield* signIn(yield* signInAnswer(laptop, ada.member.id, { counter: 1 })).pipe(
        Effect.provideService(PasskeyStore, unread)
      )
      const principal = yield* authenticate(Option.some(session.token))
      assert.isFalse(principal._tag === "Member" && principal.mfaPending === true, "the passkey proved both")
    }).pipe(provideWebAuthn())
  )

  it.effect("from zero, refuses a counter that went back to zero", () =>
    Effect.gen(function* () {
      const ada = yield* adaWithPasskey
      yield* signIn(yield* signInAnswer(laptop, ada.member.id, { counter: 2 }))
      assert.instanceOf(
        yield* refusal(signIn(yield* signInAnswer(laptop, ada.member.id, { counter: 0 }))),
        InvalidCredentials
      )
      assert.isTrue(Option.getOrThrow(yield* (yield* PasskeyStore).find(laptop as never)).suspended)
    }).pipe(provideWebAuthn())
  )

  it.effect(
    "is refused to a disabled account, an inactive member, and where the domain requires single sign-on",
    () =>
      Effect.gen(function* () {
        const ada = yield* adaWithPasskey
        yield* updateMember(master, ada.member.id, { activestatus: false })
        assert.instanceOf(
          yield* refusal(signIn(yield* signInAnswer(laptop, ada.member.id, { counter: 1 }))),
          InvalidCredentials
        )
        yield* updateMember(master, ada.member.id, { activestatus: true })
        yield* setAccountStatus(master, { memberId: ada.member.id, active: false })
        assert.instanceOf(
          yield* refusal(signIn(yield* signInAnswer(laptop, ada.member.id, { counter: 2 }))),
          InvalidCredentials
        )
        yield* setAccountStatus(master, { memberId: ada.member.id, active: true })
        const domain = yield* addDomain(master, { domain: "example.com" })
        yield* verifyDomain(master, domain.id, { verified: true })
        yield* updateOrganization(master, { ssoRequired: true })
        assert.instanceOf(
          yield* refusal(signIn(yield* signInAnswer(laptop, ada.member.id, { counter: 3 }))),
          SsoRequired
        )
        yield* updateOrganization(master, { ssoRequired: false })
        yield* signIn(yield* signInAnswer(laptop, ada.member.id, { counter: 4 }))
      }).pipe(provideWebAuthn())
  )

  it.effect("is refused when another use of the credential came first", () =>
    Effect.gen(function* () {
      const ada = yield* adaWithPasskey
      const store = yield* PasskeyStore
      const raced = PasskeyStore.of({ ...store, noteUse: () => Effect.succeed(false) })
      const answer = yield* signInAnswer(laptop, ada.member.id, { counter: 1 })
      assert.instanceOf(
        yield* refusal(signIn(answer).pipe(Effect.provideService(PasskeyStore, raced))),
        InvalidCredentials
      )
      assert.strictEqual(Option.getOrThrow(yield* store.find(laptop as never)).counter, 0)
    }).pipe(provideWebAuthn())
  )
})

describe("a passkey sign-in's challenge", () => {
  it.effect("is a challenge token of its own, used once, within five minutes", () =>
    Effect.gen(function* () {
      const ada = yield* adaWithPasskey
      const answer = yield* signInAnswer(laptop, ada.member.id, { counter: 1 })
      assert.isTrue(answer.challengeId.startsWith("rsm_"))
      yield* signIn(answer)
      assert.instanceOf(
        yield* refusal(signIn({ ...answer, response: { ...answer.response, counter: 2 } })),
        InvalidCredentials
      )
      const late = yield* signInAnswer(laptop, ada.member.id, { counter: 3 })
      yield* TestClock.adjust("300 seconds")
      assert.instanceOf(yield* refusal(signIn(late)), InvalidCredentials)
      const inTime = yield* signInAnswer(laptop, ada.member.id, { counter: 4 })
      yield* TestClock.adjust("299 seconds")
      yield* signIn(inTime)
    }).pipe(provideWebAuthn())
  )

  it.effect("answered for an account whose memberships went meanwhile signs nobody in", () =>
    Effect.gen(function* () {
      const ada = yield* adaWithPasskey
      const members = yield* MemberStore
      for (const gone of [
        MemberStore.of({ ...members, membershipsOf: () => Effect.succeed([]) }),
        MemberStore.of({ ...members, findById: () => Effect.succeed(Option.none()) })
      ]) {
        const answer = yield* signInAnswer(laptop, ada.member.id, { counter: 0 })
        assert.instanceOf(
          yield* refusal(signIn(answer).pipe(Effect.provideService(MemberStore, gone))),
          InvalidCredentials
        )
      }
    }).pipe(provideWebAuthn())
  )

  it.effect("answered once her organisation is gone signs nobody in", () =>
    Effect.gen(function* () {
      const ada = yield* adaWithPasskey
      const organizations = yield* OrganizationStore
      const gone = OrganizationStore.of({ ...organizations, findById: () => Effect.succeed(Option.none()) })
      const answer = yield* signInAnswer(laptop, ada.member.id, { counter: 1 })
      assert.instanceOf(
        yield* refusal(signIn(answer).pipe(Effect.provideService(OrganizationStore, gone))),
        InvalidCredentials
      )
    }).pipe(provideWebAuthn())
  )
})

describe("a passkey's tries on the login throttle", () => {
  it.effect("count an unknown credential by its id, its first 128 characters", () =>
    Effect.gen(function* () {
      for (const id of ["unknown-credential-one", "unknown-credential-two", "unknown-credential-six"]) {
        assert.instanceOf(yield* refusal(signIn(yield* signInAnswer(id, undefined))), InvalidCredentials)
      }
      const long = "x".repeat(128)
      for (const tail of ["a", "b"]) {
        assert.instanceOf(
          yield* refusal(signIn(yield* signInAnswer(`${long}${tail}`, undefined))),
          InvalidCredentials
        )
      }
      assert.instanceOf(yield* refusal(signIn(yield* signInAnswer(`${long}c`, undefined))), RateLimited)
    }).pipe(Effect.provide(fakeWebAuthn()), provideRoster({ throttle: { maxFailuresPerAccount: 2 } }))
  )

  it.effect("count against the account that failed, never another's", () =>
    Effect.gen(function* () {
      const ada = yield* adaWithPasskey
      const bob = yield* actorWith("bob", [])
      yield* addPasskey(bob.principal, "credential-of-bob-01")
      for (let tried = 0; tried < 2; tried++) {
        const forged = yield* signInAnswer(laptop, ada.member.id, { challenge: "not-the-challenge" })
        assert.instanceOf(yield* refusal(signIn(forged)), InvalidCredentials)
      }
      assert.instanceOf(yield* refusal(signIn(yield* signInAnswer(laptop, ada.member.id))), RateLimited)
      const bobs = yield* signIn(yield* signInAnswer("credential-of-bob-01", bob.member.id, { counter: 1 }))
      assert.strictEqual(bobs.member.id, bob.member.id)
    }).pipe(Effect.provide(fakeWebAuthn()), provideRoster({ throttle: { maxFailuresPerAccount: 2 } }))
  )

  it.effect("count with the password's, against the account", () =>
    Effect.gen(function* () {
      const ada = yield* adaWithPasskey
      for (let tried = 0; tried < 2; tried++)
        assert.instanceOf(yield* refusal(passwordLogIn("ada", "wrong")), InvalidCredentials)
      assert.instanceOf(
        yield* refusal(signIn(yield* signInAnswer(laptop, ada.member.id, { counter: 1 }))),
        RateLimited
      )
    }).pipe(Effect.provide(fakeWebAuthn()), provideRoster({ throttle: { maxFailuresPerAccount: 2 } }))
  )
})

describe("a password login's second step by passkey", () => {
  /** Ada's password login, waiting for her second factor: its challenge. */
  const challengeOf = Effect.gen(function* () {
    const outcome = yield* passwordLogIn("ada")
    assert.isTrue("challenge" in outcome, "her passkey is a second factor")
    return (outcome as { challenge: Redacted.Redacted<string> }).challenge
  })

  it.effect("answers with one of her passkeys, no user handle needed, once", () =>
    Effect.gen(function* () {
      const ada = yield* adaWithPasskey
      const challenge = yield* challengeOf
      const options = yield* secondStepPasskeyOptions(challenge)
      assert.deepStrictEqual(options.allowCredentials, [laptop])
      const passkey = { id: laptop, challenge: options.challenge, counter: 1 }
      const session = yield* verifyMfa({ challenge, passkey, client })
      assert.strictEqual(session.member.id, ada.member.id)
      assert.instanceOf(yield* refusal(verifyMfa({ challenge, passkey, client })), MfaInvalid)
    }).pipe(provideWebAuthn())
  )

  it.effect(
    "is refused another account's passkey, a stale challenge, or an account whose passkeys are suspended",
    () =>
      Effect.gen(function* () {
        const ada = yield* adaWithPasskey
        const bob = yield* actorWith("bob", [])
        yield* addPasskey(bob.principal, "credential-of-bob-01")
        const challenge = yield* challengeOf
        const options = yield* secondStepPasskeyOptions(challenge)
        const bobs = {
          id: "credential-of-bob-01",
          challenge: options.challenge,
          userHandle: bob.member.id,
          counter: 1
        }
        assert.instanceOf(yield* refusal(verifyMfa({ challenge, passkey: bobs, client })), MfaInvalid)
        assert.instanceOf(
          yield* refusal(secondStepPasskeyOptions(Redacted.make("not-a-challenge"))),
          MfaInvalid
        )
        const stale = yield* challengeOf
        yield* TestClock.adjust("5 minutes")
        assert.instanceOf(yield* refusal(secondStepPasskeyOptions(stale)), MfaInvalid)
        const fresh = yield* challengeOf
        yield* signIn(yield* signInAnswer(laptop, ada.member.id, { counter: 1 }))
        yield* refusal(signIn(yield* signInAnswer(laptop, ada.member.id, { counter: 1 })))
        assert.instanceOf(yield* refusal(secondStepPasskeyOptions(fresh)), MfaInvalid)
      }).pipe(provideWebAuthn())
  )
})
