import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  AuditLog,
  Forbidden,
  MailOff,
  MemberStore,
  RateLimited,
  requestEmailVerification,
  requestPasswordReset,
  resetPassword,
  setAccountStatus,
  TokenInvalid,
  verifyEmail
} from "../../core/index.ts"
import { mailbox } from "../support/mailbox.ts"
import { actorWith, logInAs, master, provideRoster, refusal } from "../support/roster.ts"

const newPassword = "a brand new passphrase"
const client = "192.0.2.7"
/** Lets what a request forked off its path (the reset mail) run. */
const settle = Effect.forEach([1, 2, 3, 4, 5, 6, 7, 8], () => Effect.yieldNow, { discard: true })
const reset = (token: string, chosen = newPassword) =>
  resetPassword({ token: Redacted.make(token), newPassword: Redacted.make(chosen) })

const withMailbox = () => {
  const box = mailbox()
  return { box, provide: provideRoster({ accountMail: box.accountMail }) }
}
const lastToken = (
  box: ReturnType<typeof mailbox>,
  to: string,
  purpose: "password_reset" | "email_verification"
) => Redacted.value(box.sentTo(to, purpose).at(-1)?.token ?? Redacted.make("none sent"))

describe("a password reset", () => {
  const { box, provide } = withMailbox()
  it.effect("lasts an hour: a minute before, it sets the password; a minute after, it is worth nothing", () =>
    Effect.gen(function* () {
      yield* actorWith("ada", ["team.read"])
      yield* requestPasswordReset({ email: "ada@example.com", client })
      yield* settle
      const late = lastToken(box, "ada@example.com", "password_reset")
      yield* TestClock.adjust("61 minutes")
      assert.instanceOf(yield* refusal(reset(late)), TokenInvalid)
      yield* requestPasswordReset({ email: "ada@example.com", client })
      yield* settle
      const timely = lastToken(box, "ada@example.com", "password_reset")
      yield* TestClock.adjust("59 minutes")
      yield* reset(timely)
      yield* logInAs("ada").pipe(Effect.flip)
      const entries = yield* AuditLog.use((log) => log.page({ action: "password.reset" }, 10))
      assert.lengthOf(entries, 1)
    }).pipe(provide)
  )
})

describe("asking for a reset", () => {
  it.effect("mails no disabled account, and answers it as any other", () => {
    const { box, provide } = withMailbox()
    return Effect.gen(function* () {
      const { member } = yield* actorWith("ada", ["team.read"])
      yield* setAccountStatus(master, { memberId: member.id, active: false })
      yield* requestPasswordReset({ email: "ada@example.com", client })
      yield* settle
      assert.lengthOf(box.sentTo("ada@example.com", "password_reset"), 0)
    }).pipe(provide)
  })

  it.effect("is refused as off where no reset mail is sent, before it is counted", () =>
    Effect.gen(function* () {
      const off = yield* refusal(requestPasswordReset({ email: "ada@example.com", client }))
      assert.instanceOf(off, MailOff)
      assert.strictEqual((off as MailOff).purpose, "password_reset")
    }).pipe(provideRoster())
  )

  it.effect("counts every request for an address, known or not: the fourth in a window is refused", () => {
    const { provide } = withMailbox()
    return Effect.gen(function* () {
      for (const from of ["192.0.2.1", "192.0.2.2", "192.0.2.3"]) {
        yield* requestPasswordReset({ email: "nobody@example.com", client: from })
      }
      const refused = yield* refusal(
        requestPasswordReset({ email: "NOBODY@example.com", client: "192.0.2.4" })
      )
      assert.instanceOf(refused, RateLimited)
      assert.isAbove((refused as RateLimited).retryAfterSeconds, 0)
    }).pipe(provide)
  })
})

describe("verifying an address", () => {
  it.effect("is for a signed-in person's own account", () => {
    const { provide } = withMailbox()
    return Effect.gen(function* () {
      const refused = yield* refusal(requestEmailVerification(master, client))
      assert.instanceOf(refused, Forbidden)
      assert.strictEqual((refused as Forbidden).reason, "no_account")
      const open = yield* refusal(requestEmailVerification({ _tag: "OpenLocal" }, client))
      assert.strictEqual((open as Forbidden).reason, "no_account")
    }).pipe(provide)
  })

  it.effect(
    "verifies the account with a link valid for a day, recorded in the organisation it was asked in",
    () => {
      const { box, provide } = withMailbox()
      return Effect.gen(function* () {
        const { principal, member } = yield* actorWith("ada", ["team.read"])
        assert.isTrue(yield* requestEmailVerification(principal, client))
        const token = lastToken(box, "ada@example.com", "email_verification")
        yield* TestClock.adjust("23 hours")
        const verified = yield* verifyEmail({ token: Redacted.make(token) })
        assert.isTrue(verified.emailVerified)
        assert.isFalse(yield* requestEmailVerification(principal, client), "nothing to send once verified")
        const account = yield* MemberStore.use((members) => members.findAccount(member.id))
        assert.isTrue(Option.getOrThrow(account).emailVerified)
        const entries = yield* AuditLog.use((log) => log.page({ action: "email.verified" }, 10))
        assert.deepStrictEqual(
          entries.map((entry) => entry.actor),
          [{ kind: "member", id: member.id }]
        )
      }).pipe(provide)
    }
  )

  it.effect("refuses a link older than a day", () => {
    const { box, provide } = withMailbox()
    return Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      yield* requestEmailVerification(principal, client)
      yield* TestClock.adjust("25 hours")
      const token = lastToken(box, "ada@example.com", "email_verification")
      assert.instanceOf(yield* refusal(verifyEmail({ token: Redacted.make(token) })), TokenInvalid)
      const account = yield* MemberStore.use((members) => members.findByLogin("ada"))
      assert.isFalse(Option.getOrThrow(account).emailVerified)
    }).pipe(provide)
  })

  it.effect("signs nobody in: a reset's new password is needed after it", () => {
    const { box, provide } = withMailbox()
    return Effect.gen(function* () {
      yield* actorWith("ada", ["team.read"])
      yield* requestPasswordReset({ email: "ada@example.com", client })
      yield* settle
      yield* reset(lastToken(box, "ada@example.com", "password_reset"))
      const refused = yield* refusal(logInAs("ada"))
      assert.strictEqual((refused as { _tag: string })._tag, "InvalidCredentials")
    }).pipe(provide)
  })
})
