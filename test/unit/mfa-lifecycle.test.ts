import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  authenticate,
  logIn,
  MemberId,
  MfaInvalid,
  type MissingField,
  mfaStatus,
  type NotFound,
  regenerateRecoveryCodes,
  removeTotp,
  resetMemberMfa,
  updateOrganization,
  verifyMfa,
  WrongPassword
} from "../../core/index.ts"
import { auditRecord } from "../support/audit.ts"
import { actorWith, logInAs, master, password, provideRoster, refusal } from "../support/roster.ts"
import { memberWithTotp, totpCodeNow } from "../support/totp.ts"

const client = "192.0.2.44"
const proof = { password: Redacted.make(password) }
const provide = provideRoster({ secretsKeys: ["unit-test-secrets-key-long-enough-0001"] })

const adaWithTotp = memberWithTotp("ada", client)
const codeNow = (secret: string) => totpCodeNow(secret)

const actionsOf = (action: string) =>
  Effect.map(auditRecord, (entries) => entries.filter((entry) => entry.action === action))

/** Whether the session `token` may only enrol a second factor. */
const pendingOf = (token: Redacted.Redacted<string>) =>
  Effect.map(authenticate(Option.some(token)), (principal) =>
    principal._tag === "Member" ? principal.mfaPending === true : false
  )

describe("turning one's TOTP off", () => {
  it.effect("needs TOTP on, the password and a second factor; records it", () =>
    Effect.gen(function* () {
      const { principal: bob, member: bobMember } = yield* actorWith("bob", ["team.read"])
      const none = yield* refusal(removeTotp(bob, { ...proof, code: "123456" }, client))
      assert.deepStrictEqual([(none as NotFound).entity, (none as NotFound).id], ["totp", bobMember.id])
      const { principal, member, secret } = yield* adaWithTotp
      assert.instanceOf(
        yield* refusal(
          removeTotp(principal, { password: Redacted.make("wrong password!"), code: "1" }, client)
        ),
        WrongPassword
      )
      assert.instanceOf(
        yield* refusal(removeTotp(principal, { ...proof, code: "000000" }, client)),
        MfaInvalid
      )
      assert.isTrue((yield* mfaStatus(principal)).totp, "still on")
      yield* removeTotp(principal, { ...proof, code: yield* codeNow(secret) }, client)
      assert.deepStrictEqual(yield* mfaStatus(principal), { totp: false, recoveryCodesLeft: 0 })
      const [disabled] = yield* actionsOf("mfa.disabled")
      assert.deepStrictEqual(disabled?.target, { type: "member", id: member.id })
    }).pipe(provide)
  )
})

describe("recovery codes", () => {
  it.effect("are ten, each good once for a login's second step, and recorded when used", () =>
    Effect.gen(function* () {
      const { member, recoveryCodes } = yield* adaWithTotp
      assert.lengthOf(recoveryCodes, 10)
      // 16 letters of 5 bits: 80 random bits each.
      for (const code of recoveryCodes) assert.match(code, /^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/)
      const challengeFor = Effect.flatMap(logIn({ username: "ada", ...proof, client }), (answer) =>
        "challenge" in answer ? Effect.succeed(answer.challenge) : Effect.die(new Error("a challenge"))
      )
      const code = recoveryCodes[0] ?? ""
      const missing = yield* refusal(verifyMfa({ challenge: yield* challengeFor, client }))
      assert.deepStrictEqual(
        [(missing as MissingField).field, (missing as MissingField).purpose],
        ["code", "second_factor"]
      )
      const session = yield* verifyMfa({ challenge: yield* challengeFor, code: code.toUpperCase(), client })
      assert.strictEqual(session.member.id, member.id)
      const [used] = yield* actionsOf("mfa.recovery_code_used")
      assert.deepStrictEqual(used?.target, { type: "member", id: member.id })
      assert.instanceOf(
        yield* refusal(verifyMfa({ challenge: yield* challengeFor, code, client })),
        MfaInvalid
      )
    }).pipe(provide)
  )

  it.effect(
    "are made anew with the password and a code, the old ones then worthless; none without TOTP",
    () =>
      Effect.gen(function* () {
        const { principal: bob, member: bobMember } = yield* actorWith("bob", ["team.read"])
        const none = yield* refusal(regenerateRecoveryCodes(bob, proof, client))
        assert.deepStrictEqual([(none as NotFound).entity, (none as NotFound).id], ["totp", bobMember.id])
        const { principal, member, recoveryCodes, secret } = yield* adaWithTotp
        assert.instanceOf(
          yield* refusal(regenerateRecoveryCodes(principal, proof, client)),
          MfaInvalid,
          "the password alone makes no new way in"
        )
        assert.instanceOf(
          yield* refusal(regenerateRecoveryCodes(principal, { ...proof, code: "000000" }, client)),
          MfaInvalid
        )
        assert.lengthOf(yield* actionsOf("mfa.recovery_codes_regenerated"), 0)
        const fresh = yield* regenerateRecoveryCodes(
          principal,
          { ...proof, code: yield* codeNow(secret) },
          client
        )
        assert.lengthOf(fresh.recoveryCodes, 10)
        assert.notInclude(fresh.recoveryCodes.map(Redacted.value), recoveryCodes[0])
        const [regenerated] = yield* actionsOf("mfa.recovery_codes_regenerated")
        assert.deepStrictEqual(regenerated?.target, { type: "member", id: member.id })
        const challenge = Effect.flatMap(logIn({ username: "ada", ...proof, client }), (answer) =>
          "challenge" in answer ? Effect.succeed(answer.challenge) : Effect.die(new Error("a challenge"))
        )
        const old = recoveryCodes[1] ?? ""
        assert.instanceOf(
          yield* refusal(verifyMfa({ challenge: yield* challenge, code: old, client })),
          MfaInvalid
        )
        const next = Redacted.value(fresh.recoveryCodes[0] ?? Redacted.make(""))
        yield* verifyMfa({ challenge: yield* challenge, code: next, client })
      }).pipe(provide)
  )
})

describe("an organisation that requires a second factor", () => {
  it.effect("leaves its members without TOTP only enrolling, and lets them all go when it stops", () =>
    Effect.gen(function* () {
      const { secret } = yield* adaWithTotp
      const { token: bobToken } = yield* actorWith("bob", ["team.read"])
      const adaChallenge = yield* logIn({ username: "ada", ...proof, client })
      assert.isTrue("challenge" in adaChallenge)
      const adaSession = yield* verifyMfa({
        challenge: "challenge" in adaChallenge ? adaChallenge.challenge : Redacted.make(""),
        code: yield* codeNow(secret),
        client
      })
      yield* updateOrganization(master, { requireMfa: true })
      assert.deepStrictEqual([yield* pendingOf(bobToken), yield* pendingOf(adaSession.token)], [true, false])
      yield* updateOrganization(master, { requireMfa: false })
      assert.deepStrictEqual([yield* pendingOf(bobToken), yield* pendingOf(adaSession.token)], [false, false])
    }).pipe(provide)
  )

  it.effect(
    "leaves a member whose TOTP an administrator reset only enrolling, as any member without one",
    () =>
      Effect.gen(function* () {
        const { member, token } = yield* adaWithTotp
        const { principal: admin } = yield* actorWith("admin", ["team.read", "admin.accounts.write"])
        const unknown = yield* refusal(resetMemberMfa(admin, MemberId.make("nobody")))
        assert.deepStrictEqual([(unknown as NotFound).entity, (unknown as NotFound).id], ["member", "nobody"])
        yield* updateOrganization(master, { requireMfa: true })
        assert.isFalse(yield* pendingOf(token), "her session before the reset")
        const secondSession = yield* logInAs("admin")
        yield* resetMemberMfa(admin, member.id)
        assert.isTrue(yield* pendingOf(token), "her session after it")
        const [reset] = yield* actionsOf("mfa.reset")
        assert.deepStrictEqual(reset?.target, { type: "member", id: member.id })
        const again = yield* refusal(resetMemberMfa(admin, member.id))
        assert.deepStrictEqual([(again as NotFound).entity, (again as NotFound).id], ["totp", member.id])
        const adaSession = yield* logIn({ username: "ada", ...proof, client })
        assert.isTrue("token" in adaSession && (yield* pendingOf(adaSession.token)))
        assert.isTrue(yield* pendingOf(secondSession.token), "the admin has no TOTP either")
      }).pipe(provide)
  )
})

describe("a second factor reset by an administrator", () => {
  it.effect("leaves only that account's sessions enrolling, and only where one is required", () =>
    Effect.gen(function* () {
      const ada = yield* memberWithTotp("ada", client)
      const bob = yield* memberWithTotp("bob", client)
      const cyril = yield* memberWithTotp("cyril", client)
      const { principal: admin } = yield* actorWith("admin", ["team.read", "admin.accounts.write"])
      yield* resetMemberMfa(admin, bob.member.id)
      assert.isFalse(yield* pendingOf(bob.token), "nothing is required here yet")
      yield* updateOrganization(master, { requireMfa: true })
      yield* resetMemberMfa(admin, ada.member.id)
      assert.isTrue(yield* pendingOf(ada.token))
      assert.isFalse(yield* pendingOf(cyril.token), "another account keeps its second factor")
    }).pipe(provide)
  )
})
