import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  AuditLog,
  authenticate,
  CurrentOrganization,
  CurrentOrigin,
  createOrganization,
  ensureOwner,
  listOwnSessions,
  type MailOff,
  requestEmailVerification,
  requestPasswordReset,
  resetPassword,
  TokenInvalid,
  updateMember,
  verifyEmail
} from "../../core/index.ts"
import { mailbox } from "../support/mailbox.ts"
import { actorWith, failureOf, logInAs, master, password, provideRoster, refusal } from "../support/roster.ts"

const client = "192.0.2.7"
/** Lets what a request forked off its path (the mail) run. */
const settle = Effect.forEach([1, 2, 3, 4, 5, 6, 7, 8], () => Effect.yieldNow, { discard: true })
const reset = (token: Redacted.Redacted<string>) =>
  resetPassword({ token, newPassword: Redacted.make("a brand new passphrase") })

const mailed = (
  box: ReturnType<typeof mailbox>,
  to: string,
  purpose: "password_reset" | "email_verification"
) => box.sentTo(to, purpose).at(-1)?.token ?? Redacted.make("none sent")

describe("a password reset link", () => {
  it.effect("is a reset token, good once, and ends every session of the account", () => {
    const box = mailbox()
    return Effect.gen(function* () {
      yield* actorWith("ada", ["team.read"])
      const before = yield* logInAs("ada")
      yield* requestPasswordReset({ email: "ada@example.com", client })
      yield* settle
      const token = mailed(box, "ada@example.com", "password_reset")
      assert.match(Redacted.value(token), /^rsr_/)
      yield* reset(token)
      assert.instanceOf(yield* refusal(reset(token)), TokenInvalid)
      assert.isDefined(failureOf(yield* Effect.exit(authenticate(Option.some(before.token)))), "signed out")
    }).pipe(provideRoster({ accountMail: box.accountMail }))
  })

  it.effect("is worth nothing once the account's address changed", () => {
    const box = mailbox()
    return Effect.gen(function* () {
      const { member } = yield* actorWith("ada", ["team.read"])
      yield* requestPasswordReset({ email: "ada@example.com", client })
      yield* settle
      yield* updateMember(master, member.id, { email: "countess@example.com" })
      assert.instanceOf(yield* refusal(reset(mailed(box, "ada@example.com", "password_reset"))), TokenInvalid)
    }).pipe(provideRoster({ accountMail: box.accountMail }))
  })

  it.effect("is recorded in the organisation the account was mailed from: its oldest active one", () => {
    const box = mailbox()
    return Effect.gen(function* () {
      const { member } = yield* actorWith("ada", ["team.read"])
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const inAcme = Effect.provideService(CurrentOrganization, acme.id)
      yield* inAcme(
        ensureOwner({ username: "ada", email: "ada@example.com", password: Redacted.make(password) })
      )
      yield* updateMember(master, member.id, { activestatus: false })
      yield* requestPasswordReset({ email: "ada@example.com", client })
      yield* settle
      yield* reset(mailed(box, "ada@example.com", "password_reset"))
      const resets = AuditLog.use((log) => log.page({ action: "password.reset" }, 10))
      assert.lengthOf(yield* inAcme(resets), 1)
      assert.lengthOf(yield* resets, 0, "not in the default organisation")
    }).pipe(provideRoster({ accountMail: box.accountMail }))
  })

  it.effect("lasts as long as the deployment says", () => {
    const box = mailbox()
    return Effect.gen(function* () {
      yield* actorWith("ada", ["team.read"])
      yield* requestPasswordReset({ email: "ada@example.com", client })
      yield* settle
      yield* TestClock.adjust("11 minutes")
      assert.instanceOf(yield* refusal(reset(mailed(box, "ada@example.com", "password_reset"))), TokenInvalid)
    }).pipe(provideRoster({ accountMail: box.accountMail, resetTtl: "10 minutes" }))
  })
})

describe("a verification link", () => {
  it.effect("is a verification token, and lasts as long as the deployment says", () => {
    const box = mailbox()
    return Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      yield* requestEmailVerification(principal, client)
      const token = mailed(box, "ada@example.com", "email_verification")
      assert.match(Redacted.value(token), /^rsv_/)
      yield* TestClock.adjust("3 hours")
      assert.instanceOf(yield* refusal(verifyEmail({ token })), TokenInvalid)
    }).pipe(provideRoster({ accountMail: box.accountMail, verificationTtl: "2 hours" }))
  })

  it.effect("is refused as off where no such mail is sent", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      const off = yield* refusal(requestEmailVerification(principal, client))
      assert.strictEqual((off as MailOff).purpose, "email_verification")
    }).pipe(provideRoster())
  )
})

describe("a new session", () => {
  it.effect(
    "keeps at most 256 characters of the client's agent and address, and the minute it was seen",
    () =>
      Effect.gen(function* () {
        yield* actorWith("ada", ["team.read"])
        const origin = { userAgent: "a".repeat(300), address: "b".repeat(300) }
        yield* TestClock.adjust("90 seconds")
        const session = yield* logInAs("ada").pipe(Effect.provideService(CurrentOrigin, origin))
        const principal = yield* authenticate(Option.some(session.token))
        const [listed] = (yield* listOwnSessions(principal)).filter((own) => own.current)
        assert.strictEqual(listed?.session.userAgent, "a".repeat(256))
        assert.strictEqual(listed?.session.address, "b".repeat(256))
        assert.isTrue(listed !== undefined && DateTime.toEpochMillis(listed.session.lastSeenAt) === 60_000)
      }).pipe(provideRoster())
  )
})
