import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import {
  AccountTokenStore,
  AuditLog,
  MemberStore,
  OrganizationStore,
  requestEmailVerification,
  requestPasswordReset,
  resetPassword,
  TokenInvalid,
  Unauthenticated,
  verifyEmail
} from "../../core/index.ts"
import { mailbox } from "../support/mailbox.ts"
import { actorWith, logInAs, provideRoster, refusal } from "../support/roster.ts"

const client = "192.0.2.8"
/** Lets what a request forked off its path (the reset mail) run. */
const settle = Effect.forEach([1, 2, 3, 4, 5, 6, 7, 8], () => Effect.yieldNow, { discard: true })

const withMailbox = () => {
  const box = mailbox()
  return { box, provide: provideRoster({ accountMail: box.accountMail }) }
}

/** Ada as a member, and the reset with the link mailed to her, to run. */
const linkSent = (box: ReturnType<typeof mailbox>) =>
  Effect.gen(function* () {
    yield* actorWith("ada", ["team.read"])
    yield* requestPasswordReset({ email: "ada@example.com", client })
    yield* settle
    const message = box.sentTo("ada@example.com", "password_reset").at(-1)
    if (message === undefined) throw new Error("No reset link was mailed")
    return resetPassword({ token: message.token, newPassword: Redacted.make("a brand new passphrase") })
  })

/** The password did not change: the old one still signs in, and nothing was recorded. */
const unchanged = Effect.gen(function* () {
  yield* logInAs("ada")
  assert.lengthOf(yield* AuditLog.use((log) => log.page({ action: "password.reset" }, 10)), 0)
})

describe("a password reset whose account changed meanwhile", () => {
  it.effect("sets nothing when another request used the link first", () => {
    const { box, provide } = withMailbox()
    return Effect.gen(function* () {
      const reset = yield* linkSent(box)
      const refused = yield* refusal(
        reset.pipe(
          Effect.updateService(AccountTokenStore, (store) => ({
            ...store,
            consume: () => Effect.succeedNone
          }))
        )
      )
      assert.instanceOf(refused, TokenInvalid)
      yield* unchanged
    }).pipe(provide)
  })

  it.effect("sets nothing once the organisation it was asked in is gone", () => {
    const { box, provide } = withMailbox()
    return Effect.gen(function* () {
      const reset = yield* linkSent(box)
      const refused = yield* refusal(
        reset.pipe(
          Effect.updateService(OrganizationStore, (store) => ({
            ...store,
            findById: () => Effect.succeedNone
          }))
        )
      )
      assert.instanceOf(refused, TokenInvalid)
      yield* unchanged
    }).pipe(provide)
  })

  it.effect("is refused when the account went between reading it and setting the password", () => {
    const { box, provide } = withMailbox()
    return Effect.gen(function* () {
      const reset = yield* linkSent(box)
      const refused = yield* refusal(
        reset.pipe(
          Effect.updateService(MemberStore, (store) => ({ ...store, setPassword: () => Effect.succeedNone }))
        )
      )
      assert.instanceOf(refused, TokenInvalid)
    }).pipe(provide)
  })
})

describe("an address proven while the account changed", () => {
  it.effect("proves nothing when the account went before its address was marked", () => {
    const { box, provide } = withMailbox()
    return Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      assert.isTrue(yield* requestEmailVerification(principal, client))
      const message = box.sentTo("ada@example.com", "email_verification").at(-1)
      if (message === undefined) throw new Error("No verification link was mailed")
      const refused = yield* refusal(
        verifyEmail({ token: message.token }).pipe(
          Effect.updateService(MemberStore, (store) => ({ ...store, verifyEmail: () => Effect.succeedNone }))
        )
      )
      assert.instanceOf(refused, TokenInvalid)
    }).pipe(provide)
  })

  it.effect("asks none for an account that can no longer be read", () => {
    const { box, provide } = withMailbox()
    return Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      const refused = yield* refusal(
        requestEmailVerification(principal, client).pipe(
          Effect.updateService(MemberStore, (store) => ({ ...store, findAccount: () => Effect.succeedNone }))
        )
      )
      assert.deepStrictEqual({ ...(refused as object) }, { ...new Unauthenticated({ reason: "invalid" }) })
      assert.lengthOf(box.sentTo("ada@example.com", "email_verification"), 0)
    }).pipe(provide)
  })
})
