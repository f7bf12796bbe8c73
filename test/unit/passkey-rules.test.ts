import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  AuditLog,
  authenticate,
  InvalidCredentials,
  logIn,
  MissingField,
  PasskeyId,
  PasskeyRefused,
  PasskeyStore,
  PasskeysUnavailable,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  RateLimited,
  registerPasskey,
  secondStepPasskeyOptions,
  signInMethods,
  signInWithPasskey,
  WebAuthn
} from "../../core/index.ts"
import { actorWith, password, provideRoster, refusal } from "../support/roster.ts"

const client = "192.0.2.77"

/**
 * A stand-in for the browser and the verifier: a response names its credential (`id`), user handle
 * and counter in the clear, and holds when it answers the latest challenge handed out. The rules
 * under test are the use cases', not the signature's.
 */
const handedOut: Array<string> = []
const fakeWebAuthn = Layer.succeed(
  WebAuthn,
  WebAuthn.of({
    relyingParty: { rpId: "localhost", origins: ["http://localhost:3000"] },
    registrationOptions: () => {
      const challenge = `reg-${handedOut.length}`
      handedOut.push(challenge)
      return Effect.succeed({ options: { challenge }, challenge })
    },
    authenticationOptions: () => {
      const challenge = `auth-${handedOut.length}`
      handedOut.push(challenge)
      return Effect.succeed({ options: { challenge }, challenge })
    },
    verifyRegistration: (response, challenge) =>
      response.challenge === challenge
        ? Effect.succeed({
            id: String(response.id),
            publicKey: "cHVibGlj",
            counter: 0,
            transports: ["internal"],
            backedUp: false
          })
        : Effect.fail(new PasskeyRefused()),
    claimsOf: (response) =>
      Effect.succeed({
        credentialId: String(response.id),
        userHandle: typeof response.userHandle === "string" ? response.userHandle : undefined
      }),
    verifyAuthentication: (response, challenge) =>
      response.challenge === challenge
        ? Effect.succeed({ counter: Number(response.counter), backedUp: response.backedUp === true })
        : Effect.fail(new PasskeyRefused())
  })
)
const provide = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  self.pipe(Effect.provide(fakeWebAuthn), provideRoster())

const credential = "credential-of-ada-0001"

/** Ada, signed in, with one passkey; answers her id. */
const adaWithPasskey = Effect.gen(function* () {
  const ada = yield* actorWith("ada", [])
  const options = yield* passkeyRegistrationOptions(
    ada.principal,
    { password: Redacted.make(password) },
    client
  )
  yield* registerPasskey(ada.principal, {
    name: "Laptop",
    response: { id: credential, challenge: options.challenge }
  })
  return ada
})

/** A sign-in's options, answered as an authenticator would, with `fields` over the answer. */
const answer = (fields: Record<string, unknown>) =>
  Effect.map(passkeySignInOptions(client), ({ challengeId, options }) => ({
    challengeId,
    response: { id: credential, challenge: options.challenge, ...fields }
  }))

describe("passkeys' rules", () => {
  it.effect("signs in only with the user handle of the credential's own account, given", () =>
    Effect.gen(function* () {
      const ada = yield* adaWithPasskey
      const bob = yield* actorWith("bob", [])
      const asBob = yield* answer({ userHandle: bob.member.id, counter: 1 })
      assert.instanceOf(yield* refusal(signInWithPasskey({ ...asBob, client })), InvalidCredentials)
      const withoutHandle = yield* answer({ counter: 1 })
      assert.instanceOf(yield* refusal(signInWithPasskey({ ...withoutHandle, client })), InvalidCredentials)
      const right = yield* answer({ userHandle: ada.member.id, counter: 1 })
      const session = yield* signInWithPasskey({ ...right, client })
      assert.strictEqual(session.member.id, ada.member.id)
      assert.instanceOf(
        yield* refusal(signInWithPasskey({ ...right, client })),
        InvalidCredentials,
        "used once"
      )
    }).pipe(provide)
  )

  it.effect(
    "records the sign-in as a passkey's, backed up or bound to its device, with user verification",
    () =>
      Effect.gen(function* () {
        const ada = yield* adaWithPasskey
        const bound = yield* signInWithPasskey({
          ...(yield* answer({ userHandle: ada.member.id, counter: 1 })),
          client
        })
        const synced = yield* signInWithPasskey({
          ...(yield* answer({ userHandle: ada.member.id, counter: 2, backedUp: true })),
          client
        })
        const amrOf = (token: Redacted.Redacted<string>) =>
          Effect.map(authenticate(Option.some(token)), (principal) =>
            principal._tag === "Member" ? principal.session?.amr : undefined
          )
        assert.deepStrictEqual(yield* amrOf(bound.token), ["hwk", "user", "mfa"])
        assert.deepStrictEqual(yield* amrOf(synced.token), ["swk", "user", "mfa"])
      }).pipe(provide)
  )

  it.effect("counts an unknown credential's tries against its client, until the client is throttled", () =>
    Effect.gen(function* () {
      for (let tried = 0; tried < 3; tried++) {
        const unknown = yield* answer({ id: `unknown-credential-${tried}0000000`, counter: 1 })
        assert.instanceOf(yield* refusal(signInWithPasskey({ ...unknown, client })), InvalidCredentials)
      }
      const fourth = yield* answer({ id: "unknown-credential-40000000", counter: 1 })
      assert.instanceOf(yield* refusal(signInWithPasskey({ ...fourth, client })), RateLimited)
    }).pipe(Effect.provide(fakeWebAuthn), provideRoster({ throttle: { maxFailuresPerClient: 3 } }))
  )

  it.effect("refuses a challenge older than five minutes", () =>
    Effect.gen(function* () {
      const ada = yield* adaWithPasskey
      const late = yield* answer({ userHandle: ada.member.id, counter: 1 })
      yield* TestClock.adjust("301 seconds")
      assert.instanceOf(yield* refusal(signInWithPasskey({ ...late, client })), InvalidCredentials)
    }).pipe(provide)
  )

  it.effect("suspends a credential whose counter did not grow, records it, and refuses it from then on", () =>
    Effect.gen(function* () {
      const ada = yield* adaWithPasskey
      yield* signInWithPasskey({ ...(yield* answer({ userHandle: ada.member.id, counter: 5 })), client })
      const clone = yield* answer({ userHandle: ada.member.id, counter: 3 })
      assert.instanceOf(yield* refusal(signInWithPasskey({ ...clone, client })), InvalidCredentials)
      const kept = Option.getOrThrow(yield* (yield* PasskeyStore).find(PasskeyId.make(credential)))
      assert.isTrue(kept.suspended)
      assert.strictEqual(kept.counter, 5)
      const record = yield* (yield* AuditLog).page({ action: "passkey.clone_suspected" }, 10)
      assert.strictEqual(record.length, 1)
      const later = yield* answer({ userHandle: ada.member.id, counter: 9 })
      assert.instanceOf(yield* refusal(signInWithPasskey({ ...later, client })), InvalidCredentials)
    }).pipe(provide)
  )

  it.effect("adds a passkey without the password only from a session opened in the last five minutes", () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", [])
      yield* passkeyRegistrationOptions(ada.principal, {}, client)
      yield* TestClock.adjust("6 minutes")
      assert.instanceOf(yield* refusal(passkeyRegistrationOptions(ada.principal, {}, client)), MissingField)
      const options = yield* passkeyRegistrationOptions(
        ada.principal,
        { password: Redacted.make(password) },
        client
      )
      const stale = yield* refusal(
        registerPasskey(ada.principal, {
          name: "Old",
          response: { id: credential, challenge: "reg-elsewhere" }
        })
      )
      assert.instanceOf(stale, PasskeyRefused)
      assert.instanceOf(
        yield* refusal(
          registerPasskey(ada.principal, {
            name: "Twice",
            response: { id: credential, challenge: options.challenge }
          })
        ),
        PasskeyRefused,
        "the challenge went with the refused answer"
      )
    }).pipe(provide)
  )

  it.effect(
    "with passkeys off, refuses every ceremony before any other work, the password not even tried",
    () =>
      Effect.gen(function* () {
        const ada = yield* actorWith("ada", [])
        const wrong = { password: Redacted.make("not the password at all") }
        const ceremonies = [
          passkeyRegistrationOptions(ada.principal, wrong, client),
          passkeyRegistrationOptions(ada.principal, wrong, client),
          registerPasskey(ada.principal, { name: "Laptop", response: { id: credential } }),
          passkeySignInOptions(client),
          signInWithPasskey({ challengeId: "rsm_x", response: { id: credential }, client }),
          secondStepPasskeyOptions(Redacted.make("rsm_x"))
        ]
        for (const ceremony of ceremonies)
          assert.instanceOf(yield* refusal(ceremony as Effect.Effect<unknown, unknown>), PasskeysUnavailable)
        const { passkeys, passkeyOrigins } = yield* signInMethods
        assert.isFalse(passkeys)
        assert.deepStrictEqual(passkeyOrigins, [])
        // The wrong password was never tried: twice would have used up an allowance of one failure.
        const signedIn = yield* logIn({ username: "ada", password: Redacted.make(password), client })
        assert.isTrue("token" in signedIn)
      }).pipe(provideRoster({ passkeys: "off", throttle: { maxFailuresPerAccount: 1 } }))
  )

  it.effect("tells the allowed origins of a deployment with passkeys on", () =>
    Effect.gen(function* () {
      const { passkeys, passkeyOrigins } = yield* signInMethods
      assert.isTrue(passkeys)
      assert.deepStrictEqual(passkeyOrigins, ["http://localhost:3000"])
    }).pipe(provide)
  )

  it.effect(
    "asks an account whose only factor is a passkey for its second step, naming the passkey alone",
    () =>
      Effect.gen(function* () {
        yield* adaWithPasskey
        const answer = yield* logIn({ username: "ada", password: Redacted.make(password), client })
        assert.isTrue("mfaRequired" in answer)
        assert.deepStrictEqual("methods" in answer ? answer.methods : undefined, ["passkey"])
      }).pipe(provide)
  )
})
