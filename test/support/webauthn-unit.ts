import { Effect, Layer, Redacted } from "effect"
import {
  type MemberId,
  PasskeyRefused,
  type Principal,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  registerPasskey,
  WebAuthn
} from "../../core/index.ts"
import { provideRoster } from "./roster.ts"

/**
 * A stand-in for the browser and the verifier: a response names its credential (`id`), user handle
 * and counter in the clear, and holds when it answers the challenge given and names the credential
 * verified against. Options carry what the use case handed the ceremony (the user, the credentials
 * excluded or allowed), for the tests to read. The rules under test are the use cases', not the
 * signature's (the adapter's, tested with real authenticators' responses).
 */
export const fakeWebAuthn = () => {
  let handedOut = 0
  const nextChallenge = (ceremony: string) => {
    handedOut += 1
    return `${ceremony}-${handedOut}`
  }
  return Layer.succeed(
    WebAuthn,
    WebAuthn.of({
      relyingParty: { rpId: "localhost", origins: ["http://localhost:3000"] },
      registrationOptions: (user, exclude) => {
        const challenge = nextChallenge("reg")
        return Effect.succeed({
          options: { challenge, user, excludeCredentials: exclude.map(({ id }) => id) },
          challenge
        })
      },
      authenticationOptions: (allow) => {
        const challenge = nextChallenge("auth")
        return Effect.succeed({
          options: {
            challenge,
            ...(allow === undefined ? {} : { allowCredentials: allow.map(({ id }) => id) })
          },
          challenge
        })
      },
      verifyRegistration: (response, challenge) =>
        response.challenge === challenge
          ? Effect.succeed({
              id: String(response.id),
              publicKey: "cHVibGlj",
              counter: Number(response.counter ?? 0),
              transports: ["internal"],
              backedUp: response.backedUp === true
            })
          : Effect.fail(new PasskeyRefused()),
      claimsOf: (response) =>
        Effect.succeed({
          credentialId: String(response.id),
          userHandle: typeof response.userHandle === "string" ? response.userHandle : undefined
        }),
      verifyAuthentication: (response, challenge, credential) =>
        response.challenge === challenge && response.id === credential.id
          ? Effect.succeed({ counter: Number(response.counter ?? 0), backedUp: response.backedUp === true })
          : Effect.fail(new PasskeyRefused())
    })
  )
}

export const provideWebAuthn =
  (options: Parameters<typeof provideRoster>[0] = {}) =>
  <A, E, R>(self: Effect.Effect<A, E, R>) =>
    self.pipe(Effect.provide(fakeWebAuthn()), provideRoster(options))

/** Adds a passkey of credential `id` to the actor's account, proven by a young session. */
export const addPasskey = (
  actor: Principal,
  id: string,
  name = "Laptop",
  fields: Record<string, unknown> = {}
) =>
  Effect.gen(function* () {
    const options = yield* passkeyRegistrationOptions(actor, {}, "192.0.2.1")
    return yield* registerPasskey(actor, { name, response: { id, challenge: options.challenge, ...fields } })
  })

/** A discoverable sign-in's options, answered by credential `id` with `fields` over the answer. */
export const signInAnswer = (
  id: string,
  accountId: MemberId | undefined,
  fields: Record<string, unknown> = {}
) =>
  Effect.map(passkeySignInOptions("192.0.2.1"), ({ challengeId, options }) => ({
    challengeId,
    response: {
      id,
      challenge: options.challenge,
      ...(accountId === undefined ? {} : { userHandle: accountId }),
      ...fields
    }
  }))

export const passwordOf = (text: string) => ({ password: Redacted.make(text) })
