import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  AccountTokenStore,
  changeOwnPassword,
  logIn,
  MfaInvalid,
  MissingField,
  OrganizationStore,
  verifyMfa
} from "../../core/index.ts"
import { password, provideRoster, refusal } from "../support/roster.ts"
import { memberWithTotp, totpCodeNow } from "../support/totp.ts"

const client = "192.0.2.46"
const provide = provideRoster({
  secretsKeys: ["unit-test-secrets-key-long-enough-0003"],
  throttle: { maxFailuresPerAccount: 50, maxFailuresPerClient: 50 }
})

const challenge = Effect.flatMap(
  logIn({ username: "ada", password: Redacted.make(password), client }),
  (answer) =>
    "challenge" in answer ? Effect.succeed(answer.challenge) : Effect.die(new Error("expected a challenge"))
)

/** Ada with TOTP, a login's challenge, and her app's code of now. */
const pending = Effect.gen(function* () {
  const ada = yield* memberWithTotp("ada", client)
  const asked = yield* challenge
  return { ...ada, asked, code: yield* totpCodeNow(ada.secret) }
})

describe("a second factor given for a login's challenge", () => {
  it.effect("is asked for: neither a code, a recovery code nor a passkey is a missing field", () =>
    Effect.gen(function* () {
      const { asked } = yield* pending
      assert.deepStrictEqual(
        { ...((yield* refusal(verifyMfa({ challenge: asked, client }))) as object) },
        { ...new MissingField({ field: "code", purpose: "second_factor" }) }
      )
    }).pipe(provide)
  )

  it.effect("starts no session when another request took the challenge meanwhile", () =>
    Effect.gen(function* () {
      const { asked, code } = yield* pending
      const refused = yield* refusal(
        verifyMfa({ challenge: asked, code, client }).pipe(
          Effect.updateService(AccountTokenStore, (store) => ({
            ...store,
            consume: () => Effect.succeedNone
          }))
        )
      )
      assert.instanceOf(refused, MfaInvalid)
    }).pipe(provide)
  )

  it.effect("starts no session once the password was changed meanwhile, its sessions ended", () =>
    Effect.gen(function* () {
      const { asked, code, principal } = yield* pending
      yield* changeOwnPassword(
        principal,
        {
          currentPassword: Redacted.make(password),
          newPassword: Redacted.make("another horse battery staple")
        },
        client
      )
      assert.instanceOf(yield* refusal(verifyMfa({ challenge: asked, code, client })), MfaInvalid)
    }).pipe(provide)
  )

  it.effect("starts no session in an organisation no longer there", () =>
    Effect.gen(function* () {
      const { asked, code } = yield* pending
      const refused = yield* refusal(
        verifyMfa({ challenge: asked, code, client }).pipe(
          Effect.updateService(OrganizationStore, (store) => ({
            ...store,
            findById: () => Effect.succeed(Option.none())
          }))
        )
      )
      assert.instanceOf(refused, MfaInvalid)
    }).pipe(provide)
  )
})
