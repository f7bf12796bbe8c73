import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { generateSync } from "otplib"
import { confirmTotp, enrolTotp, logIn, MfaInvalid, type Principal, verifyMfa } from "../../core/index.ts"
import { actorWith, provideRoster, refusal } from "../support/roster.ts"

const client = "192.0.2.44"
const password = Redacted.make("correct horse battery staple")
/** A code for the step `offset` steps from the test clock's now, computed by otplib. */
const codeAt = (secret: string, offset = 0) =>
  Effect.map(DateTime.now, (now) =>
    generateSync({ secret, epoch: Math.floor(now.epochMilliseconds / 1000) + offset * 30 })
  )

const withTotp = Effect.gen(function* () {
  const { principal } = yield* actorWith("ada", ["team.read"])
  const { secret } = yield* enrolTotp(principal as Principal, { password }, client)
  yield* confirmTotp(principal, { code: yield* codeAt(Redacted.value(secret)) })
  return Redacted.value(secret)
})
const challenge = Effect.flatMap(logIn({ username: "ada", password, client }), (answer) =>
  "challenge" in answer ? Effect.succeed(answer.challenge) : Effect.die(new Error("expected a challenge"))
)

describe("a login's second step", () => {
  const provide = provideRoster({ secretsKeys: ["unit-test-secrets-key-long-enough-0001"] })

  it.effect("lives five minutes: a right code after them is refused", () =>
    Effect.gen(function* () {
      const secret = yield* withTotp
      const late = yield* challenge
      yield* TestClock.adjust("5 minutes")
      const code = yield* codeAt(secret)
      assert.instanceOf(yield* refusal(verifyMfa({ challenge: late, code, client })), MfaInvalid)
      const timely = yield* challenge
      yield* TestClock.adjust("4 minutes")
      const session = yield* verifyMfa({ challenge: timely, code: yield* codeAt(secret), client })
      assert.strictEqual(session.member.username, "ada")
    }).pipe(provide)
  )

  it.effect("takes a code one step early or late, not two, and each step once", () =>
    Effect.gen(function* () {
      const secret = yield* withTotp
      yield* TestClock.adjust("2 minutes")
      const first = yield* challenge
      assert.instanceOf(
        yield* refusal(verifyMfa({ challenge: first, code: yield* codeAt(secret, 2), client })),
        MfaInvalid
      )
      assert.instanceOf(
        yield* refusal(verifyMfa({ challenge: first, code: yield* codeAt(secret, -2), client })),
        MfaInvalid
      )
      yield* verifyMfa({ challenge: first, code: yield* codeAt(secret, -1), client })
      const second = yield* challenge
      assert.instanceOf(
        yield* refusal(verifyMfa({ challenge: second, code: yield* codeAt(secret, -1), client })),
        MfaInvalid,
        "the step is taken"
      )
      yield* verifyMfa({ challenge: second, code: yield* codeAt(secret, 1), client })
      const third = yield* challenge
      assert.instanceOf(
        yield* refusal(verifyMfa({ challenge: third, code: yield* codeAt(secret), client })),
        MfaInvalid,
        "a step before one taken"
      )
    }).pipe(provide)
  )

  it.effect(
    "names the factors the account holds: TOTP and its recovery codes, then TOTP alone once they are spent",
    () =>
      Effect.gen(function* () {
        const { principal } = yield* actorWith("ada", ["team.read"])
        const { secret } = yield* enrolTotp(principal as Principal, { password }, client)
        const { recoveryCodes } = yield* confirmTotp(principal, {
          code: yield* codeAt(Redacted.value(secret))
        })
        const first = yield* logIn({ username: "ada", password, client })
        assert.deepStrictEqual("methods" in first ? first.methods : undefined, ["totp", "recovery_code"])
        for (const recoveryCode of recoveryCodes ?? []) {
          const asked = yield* challenge
          yield* verifyMfa({ challenge: asked, recoveryCode: Redacted.value(recoveryCode), client })
        }
        const spent = yield* logIn({ username: "ada", password, client })
        assert.deepStrictEqual("methods" in spent ? spent.methods : undefined, ["totp"])
      }).pipe(provide)
  )
})
