import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { RateLimited, requestEmailVerification, requestPasswordReset } from "../../core/index.ts"
import { mailbox } from "../support/mailbox.ts"
import { actorWith, provideRoster, refusal } from "../support/roster.ts"

const reset = (email: string, client: string) => requestPasswordReset({ email, client })

describe("counting requests for mail", () => {
  it.effect("counts each address apart, and each client apart", () =>
    Effect.gen(function* () {
      for (let n = 0; n < 4; n++) yield* reset(`person${n}@example.com`, `192.0.2.${n}`)
      for (let n = 0; n < 4; n++) yield* reset("same@example.org", `198.51.100.${n}`).pipe(Effect.ignore)
      assert.instanceOf(yield* refusal(reset("same@example.org", "198.51.100.9")), RateLimited)
      assert.isUndefined(yield* refusal(reset("other@example.org", "198.51.100.9")), "another address")
    }).pipe(provideRoster({ accountMail: mailbox().accountMail }))
  )

  it.effect("allows one client twenty requests in a window, whatever the addresses", () =>
    Effect.gen(function* () {
      for (let n = 0; n < 20; n++) yield* reset(`person${n}@example.com`, "203.0.113.5")
      assert.instanceOf(yield* refusal(reset("person20@example.com", "203.0.113.5")), RateLimited)
      assert.isUndefined(yield* refusal(reset("person20@example.com", "203.0.113.6")), "another client")
    }).pipe(provideRoster({ accountMail: mailbox().accountMail }))
  )

  it.effect("counts resets and verifications apart", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      for (let n = 0; n < 3; n++) yield* reset("ada@example.com", `192.0.2.${n}`)
      assert.isTrue(yield* requestEmailVerification(principal, "192.0.2.50"))
    }).pipe(provideRoster({ accountMail: mailbox().accountMail }))
  )
})
