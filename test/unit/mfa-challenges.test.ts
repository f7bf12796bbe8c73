import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  type Forbidden,
  logIn,
  MfaInvalid,
  removeMember,
  resetMemberMfa,
  setAccountStatus,
  verifyMfa
} from "../../core/index.ts"
import { actorWith, master, password, provideRoster, refusal } from "../support/roster.ts"
import { memberWithTotp, totpCodeNow } from "../support/totp.ts"

const client = "192.0.2.45"
const proof = { password: Redacted.make(password) }
// Roomy enough a throttle that only the challenge's own five tries are what refuses.
const provide = provideRoster({
  secretsKeys: ["unit-test-secrets-key-long-enough-0002"],
  throttle: { maxFailuresPerAccount: 50, maxFailuresPerClient: 50 }
})
const adaWithTotp = memberWithTotp("ada", client)
const codeNow = (secret: string) => totpCodeNow(secret)

const challenge = Effect.flatMap(logIn({ username: "ada", ...proof, client }), (answer) =>
  "challenge" in answer ? Effect.succeed(answer.challenge) : Effect.die(new Error("expected a challenge"))
)

describe("a login's challenge", () => {
  it.effect("takes five wrong codes, then not even the right one", () =>
    Effect.gen(function* () {
      const { secret } = yield* adaWithTotp
      const tried = yield* challenge
      for (const wrong of ["000000", "111111", "222222", "333333", "444444"]) {
        assert.instanceOf(yield* refusal(verifyMfa({ challenge: tried, code: wrong, client })), MfaInvalid)
      }
      const right = yield* codeNow(secret)
      assert.instanceOf(yield* refusal(verifyMfa({ challenge: tried, code: right, client })), MfaInvalid)
      const session = yield* verifyMfa({ challenge: yield* challenge, code: right, client })
      assert.strictEqual(session.member.username, "ada")
    }).pipe(provide)
  )

  it.effect("serves one session only", () =>
    Effect.gen(function* () {
      const { secret } = yield* adaWithTotp
      const once = yield* challenge
      yield* verifyMfa({ challenge: once, code: yield* codeNow(secret), client })
      yield* TestClock.adjust("30 seconds")
      assert.instanceOf(
        yield* refusal(verifyMfa({ challenge: once, code: yield* codeNow(secret), client })),
        MfaInvalid
      )
    }).pipe(provide)
  )

  it.effect("signs in no account disabled since the password was given", () =>
    Effect.gen(function* () {
      const { member, secret } = yield* adaWithTotp
      const pending = yield* challenge
      yield* setAccountStatus(master, { memberId: member.id, active: false })
      const refused = yield* refusal(verifyMfa({ challenge: pending, code: yield* codeNow(secret), client }))
      assert.strictEqual((refused as Forbidden).reason, "inactive")
    }).pipe(provide)
  )

  it.effect("reads a code as the app shows it, spaces and all, and nothing longer", () =>
    Effect.gen(function* () {
      const { secret } = yield* adaWithTotp
      const code = yield* codeNow(secret)
      assert.instanceOf(
        yield* refusal(verifyMfa({ challenge: yield* challenge, code: `${code}0`, client })),
        MfaInvalid
      )
      assert.instanceOf(
        yield* refusal(verifyMfa({ challenge: yield* challenge, code: `0${code}`, client })),
        MfaInvalid
      )
      const spaced = `${code.slice(0, 3)} ${code.slice(3)}`
      const session = yield* verifyMfa({ challenge: yield* challenge, code: spaced, client })
      assert.strictEqual(session.member.username, "ada")
    }).pipe(provide)
  )
})

describe("a challenge whose account changed meanwhile", () => {
  it.effect("is refused once the account's TOTP was reset", () =>
    Effect.gen(function* () {
      const { member, secret } = yield* adaWithTotp
      const { principal: admin } = yield* actorWith("admin", [
        "team.read",
        "team.members.write",
        "admin.accounts.write"
      ])
      const reset = yield* challenge
      yield* resetMemberMfa(admin, member.id)
      assert.instanceOf(
        yield* refusal(verifyMfa({ challenge: reset, code: yield* codeNow(secret), client })),
        MfaInvalid
      )
    }).pipe(provide)
  )

  it.effect("is refused once its member was removed", () =>
    Effect.gen(function* () {
      const { member, secret } = yield* adaWithTotp
      const pending = yield* challenge
      yield* removeMember(master, member.id)
      assert.instanceOf(
        yield* refusal(verifyMfa({ challenge: pending, code: yield* codeNow(secret), client })),
        MfaInvalid
      )
    }).pipe(provide)
  )
})
