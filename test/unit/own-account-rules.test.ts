import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  AuditLog,
  authenticate,
  confirmTotp,
  createApiKey,
  endOwnSession,
  enrolTotp,
  type Forbidden,
  listOwnSessions,
  MfaInvalid,
  mfaStatus,
  type NotFound,
  type Principal
} from "../../core/index.ts"
import { actorWith, failureOf, logInAs, master, password, provideRoster, refusal } from "../support/roster.ts"
import { totpCodeNow } from "../support/totp.ts"

const client = "192.0.2.46"
const proof = { password: Redacted.make(password) }

describe("one's own account", () => {
  it.effect("is no API key's: a key has no sessions to list or end", () =>
    Effect.gen(function* () {
      const { key } = yield* createApiKey(master, { name: "Sync", permissions: ["team.read"] })
      const machine = yield* authenticate(Option.some(key))
      const refused = yield* refusal(listOwnSessions(machine))
      assert.strictEqual((refused as Forbidden).reason, "person_only")
    }).pipe(provideRoster())
  )

  it.effect("lists which of its sessions is the caller's, and records the end of another", () =>
    Effect.gen(function* () {
      const { principal, member } = yield* actorWith("ada", ["team.read"])
      const other = yield* logInAs("ada")
      const sessions = yield* listOwnSessions(principal)
      assert.lengthOf(sessions, 2)
      assert.deepStrictEqual(sessions.map((own) => own.current).sort(), [false, true])
      const otherOne = sessions.find((own) => !own.current)
      if (otherOne === undefined) return assert.fail("the other session is listed")
      yield* endOwnSession(principal, otherOne.session.id)
      assert.isDefined(failureOf(yield* Effect.exit(authenticate(Option.some(other.token)))), "ended")
      const [entry] = yield* AuditLog.use((log) => log.page({ action: "session.revoked" }, 10))
      assert.deepStrictEqual(entry?.target, { type: "session", id: otherOne.session.id })
      assert.deepStrictEqual(entry?.actor, { kind: "member", id: member.id })
    }).pipe(provideRoster())
  )
})

describe("confirming TOTP", () => {
  const provide = provideRoster({ secretsKeys: ["unit-test-secrets-key-long-enough-0003"] })
  const codeNow = (secret: string) => totpCodeNow(secret)

  it.effect("needs an enrolment under way and its right code, then answers the recovery codes", () =>
    Effect.gen(function* () {
      const { principal, member } = yield* actorWith("ada", ["team.read"])
      const none = yield* refusal(confirmTotp(principal, { code: "123456" }))
      assert.deepStrictEqual([(none as NotFound).entity, (none as NotFound).id], ["totp", member.id])
      const { secret } = yield* enrolTotp(principal as Principal, proof, client)
      assert.instanceOf(yield* refusal(confirmTotp(principal, { code: "000000" })), MfaInvalid)
      assert.isFalse((yield* mfaStatus(principal)).totp)
      const code = yield* codeNow(Redacted.value(secret))
      const confirmed = yield* confirmTotp(principal, { code: `${code.slice(0, 3)} ${code.slice(3)}` })
      assert.lengthOf(confirmed.recoveryCodes, 10)
      assert.deepStrictEqual(yield* mfaStatus(principal), { totp: true, recoveryCodesLeft: 10 })
      yield* TestClock.adjust("30 seconds")
      const again = yield* refusal(confirmTotp(principal, { code: yield* codeNow(Redacted.value(secret)) }))
      assert.deepStrictEqual([(again as NotFound).entity, (again as NotFound).id], ["totp", member.id])
    }).pipe(provide)
  )
})
