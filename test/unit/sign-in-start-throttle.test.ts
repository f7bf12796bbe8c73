import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { exchangeSsoCode, passkeySignInOptions, RateLimited, SsoRefused, startSso } from "../../core/index.ts"
import { refusal } from "../support/roster.ts"
import { provideWebAuthn } from "../support/webauthn-unit.ts"

const client = "2001:db8:1:2::7"
/** Another host of the same /64: the same client, for throttling. */
const sameNetwork = "2001:db8:1:2:ffff::9"
const elsewhere = "198.51.100.7"
const provide = provideWebAuthn({ throttle: { maxSignInStartsPerClient: 2 } })

const limited = (error: unknown) => {
  assert.instanceOf(error, RateLimited)
  assert.isAbove((error as RateLimited).retryAfterSeconds, 0)
}

describe("sign-ins a caller nobody knows yet may start, each writing a record", () => {
  it.effect(
    "passkey sign-in options: so many per client address (IPv6 by /64) and window, the refused one writing no challenge",
    () =>
      Effect.gen(function* () {
        yield* passkeySignInOptions(client)
        yield* passkeySignInOptions(sameNetwork)
        limited(yield* refusal(passkeySignInOptions(client)))
        // The refused request handed out no challenge: the next one anywhere is the third made.
        const other = yield* passkeySignInOptions(elsewhere)
        assert.strictEqual(other.options.challenge, "auth-3")
        yield* TestClock.adjust("31 minutes")
        yield* passkeySignInOptions(client)
      }).pipe(provide)
  )

  it.effect(
    "single sign-on starts and code exchanges: so many per client, each kind counted apart, right or wrong",
    () =>
      Effect.gen(function* () {
        for (let i = 0; i < 2; i++) {
          assert.instanceOf(yield* refusal(startSso({ organization: "nobody" }, client)), SsoRefused)
          assert.instanceOf(
            yield* refusal(exchangeSsoCode(Redacted.make("rso_not-a-code"), client)),
            SsoRefused
          )
        }
        limited(yield* refusal(startSso({ organization: "nobody" }, client)))
        limited(yield* refusal(exchangeSsoCode(Redacted.make("rso_not-a-code"), client)))
        assert.instanceOf(yield* refusal(startSso({ organization: "nobody" }, elsewhere)), SsoRefused)
        yield* passkeySignInOptions(client)
      }).pipe(provide)
  )
})
