import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import {
  InvalidCredentials,
  logIn,
  MfaInvalid,
  PasskeyStore,
  secondStepPasskeyOptions,
  signInWithPasskey,
  verifyMfa
} from "../../core/index.ts"
import { actorWith, password, refusal } from "../support/roster.ts"
import { addPasskey, provideWebAuthn, signInAnswer } from "../support/webauthn-unit.ts"

const client = "192.0.2.48"
const laptop = "credential-laptop-0002"

/** Ada with a passkey, her password login waiting for it: the login's challenge. */
const adaWaiting = Effect.gen(function* () {
  const ada = yield* actorWith("ada", [])
  yield* addPasskey(ada.principal, laptop)
  const outcome = yield* logIn({ username: "ada", password: Redacted.make(password), client })
  if (!("challenge" in outcome)) throw new Error("Expected her passkey to be asked for")
  return { ...ada, challenge: outcome.challenge }
})

describe("a passkey's answer to what was not asked", () => {
  it.effect("is no second step when no options were asked for the login's challenge", () =>
    Effect.gen(function* () {
      const { challenge } = yield* adaWaiting
      const unasked = { id: laptop, challenge: "auth-1", counter: 1 }
      assert.instanceOf(yield* refusal(verifyMfa({ challenge, passkey: unasked, client })), MfaInvalid)
      const options = yield* secondStepPasskeyOptions(challenge)
      const session = yield* verifyMfa({
        challenge,
        passkey: { id: laptop, challenge: options.challenge, counter: 1 },
        client
      })
      assert.strictEqual(session.member.username, "ada", "the login's challenge is still good")
    }).pipe(provideWebAuthn())
  )

  it.effect("names no credential when its id is no credential id, and none is looked up", () =>
    Effect.gen(function* () {
      const { member } = yield* adaWaiting
      let lookups = 0
      const answer = yield* signInAnswer("too-short", member.id, { counter: 1 })
      const refused = yield* refusal(
        signInWithPasskey({ ...answer, client }).pipe(
          Effect.updateService(PasskeyStore, (store) => ({
            ...store,
            find: (id) =>
              Effect.suspend(() => {
                lookups++
                return store.find(id)
              })
          }))
        )
      )
      assert.instanceOf(refused, InvalidCredentials)
      assert.strictEqual(lookups, 0)
    }).pipe(provideWebAuthn())
  )
})
