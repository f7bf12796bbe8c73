import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { TestClock } from "effect/testing"
import { addActiveMember, attempt, client, countingHasher } from "../support/log-in.ts"
import { password, provideRoster } from "../support/roster.ts"

describe("logIn", () => {
  describe("throttling", () => {
    const window = Duration.minutes(10)
    const throttle = { window, maxFailuresPerAccount: 3, maxFailuresPerClient: 5 }

    /** The per-client limit out of reach, so that only the per-account limit can lock. */
    const provideAccountLimitOnly = provideRoster({ throttle: { ...throttle, maxFailuresPerClient: 100 } })
    /** The per-account limit out of reach, so that only the per-client limit can lock. */
    const provideClientLimitOnly = provideRoster({ throttle: { ...throttle, maxFailuresPerAccount: 100 } })

    const failTimes = (times: number, username: string, from: string = client) =>
      Effect.gen(function* () {
        for (let i = 0; i < times; i++) {
          const error = yield* Effect.flip(attempt(username, "wrong password", from))
          assert.strictEqual(error._tag, "InvalidCredentials", `failure ${i + 1} of ${username}`)
        }
      })

    /** Five failures from one client, one per account: the client reaches its limit, no account does. */
    const failOnceForEachOfFiveAccounts = Effect.forEach(["u1", "u2", "u3", "u4", "u5"], (username) =>
      failTimes(1, username)
    )

    const expectRateLimited = (username: string, secret: string, from: string = client) =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(attempt(username, secret, from))
        assert.strictEqual(error._tag, "RateLimited")
        if (error._tag === "RateLimited") {
          assert.isAbove(error.retryAfterSeconds, 0)
          assert.isAtMost(error.retryAfterSeconds, 2 * Duration.toSeconds(window))
          assert.isTrue(Number.isInteger(error.retryAfterSeconds))
        }
      })

    it.effect("an account is locked after maxFailuresPerAccount failures, even for the right password", () =>
      Effect.gen(function* () {
        yield* addActiveMember()
        yield* failTimes(3, "alice")
        yield* expectRateLimited("alice", password)
        yield* expectRateLimited("alice", "wrong password")
      }).pipe(provideAccountLimitOnly)
    )

    it.effect("whichever spelling of the login, one client's failures lock the account for that client", () =>
      Effect.gen(function* () {
        yield* addActiveMember()
        yield* failTimes(1, "alice")
        yield* failTimes(1, "ALICE")
        yield* failTimes(1, " Alice ")
        yield* expectRateLimited("alice", password)
      }).pipe(provideAccountLimitOnly)
    )

    it.effect("failures from one address never stop the owner signing in from another", () =>
      Effect.gen(function* () {
        const alice = yield* addActiveMember()
        yield* failTimes(3, "alice", "198.51.100.1")
        yield* expectRateLimited("alice", password, "198.51.100.1")
        const session = yield* attempt("alice", password, "192.0.2.50")
        assert.strictEqual(session.member.id, alice.id)
      }).pipe(provideAccountLimitOnly)
    )

    it.effect("an IPv6 client is counted by its /64: rotating through it gains nothing", () =>
      Effect.gen(function* () {
        yield* addActiveMember()
        yield* failTimes(1, "alice", "2001:db8:1:2::1")
        yield* failTimes(1, "alice", "2001:db8:1:2:ffff::9")
        yield* failTimes(1, "alice", "2001:0db8:0001:0002:0:0:0:7")
        yield* expectRateLimited("alice", password, "2001:db8:1:2:aaaa:bbbb:cccc:dddd")
        // The next /64 is another client.
        const session = yield* attempt("alice", password, "2001:db8:1:3::1")
        assert.strictEqual(session.member.username, "alice")
      }).pipe(provideAccountLimitOnly)
    )

    it.effect("parallel guesses cannot slip past the limit: only the allowed ones reach the hasher", () => {
      const { calls, layer } = countingHasher()
      return Effect.gen(function* () {
        yield* addActiveMember()
        const before = calls.verify
        const outcomes = yield* Effect.all(
          Array.from({ length: 20 }, () => Effect.flip(attempt("alice", "wrong password"))),
          { concurrency: "unbounded" }
        )
        const tags = outcomes.map((error) => error._tag)
        assert.strictEqual(tags.filter((tag) => tag === "InvalidCredentials").length, 3)
        assert.strictEqual(tags.filter((tag) => tag === "RateLimited").length, 17)
        assert.strictEqual(calls.verify - before, 3)
      }).pipe(Effect.provide(layer), provideAccountLimitOnly)
    })

    it.effect("the username and the e-mail of one account share its counter", () =>
      Effect.gen(function* () {
        yield* addActiveMember()
        yield* failTimes(2, "alice")
        yield* failTimes(1, "Alice@Example.com")
        yield* expectRateLimited("alice@example.com", password)
      }).pipe(provideAccountLimitOnly)
    )

    it.effect("fewer failures than the limit do not lock the account", () =>
      Effect.gen(function* () {
        const alice = yield* addActiveMember()
        yield* failTimes(2, "alice")
        const session = yield* attempt("alice", password)
        assert.strictEqual(session.member.id, alice.id)
      }).pipe(provideAccountLimitOnly)
    )

    it.effect("failures for an unknown account count too", () =>
      Effect.gen(function* () {
        yield* failTimes(3, "ghost")
        yield* expectRateLimited("ghost", password)
      }).pipe(provideAccountLimitOnly)
    )

    it.effect("a locked account does not lock other accounts", () =>
      Effect.gen(function* () {
        yield* addActiveMember()
        const bob = yield* addActiveMember("bob")
        yield* failTimes(3, "alice")
        yield* expectRateLimited("alice", password)
        const session = yield* attempt("bob", password)
        assert.strictEqual(session.member.id, bob.id)
      }).pipe(provideAccountLimitOnly)
    )

    it.effect("the retry delay counts down, and after waiting as long as told the login works", () =>
      Effect.gen(function* () {
        const alice = yield* addActiveMember()
        yield* failTimes(3, "alice")
        const first = yield* Effect.flip(attempt("alice", password))
        yield* TestClock.adjust("4 minutes")
        const later = yield* Effect.flip(attempt("alice", password))
        assert.strictEqual(first._tag, "RateLimited")
        assert.strictEqual(later._tag, "RateLimited")
        if (first._tag === "RateLimited" && later._tag === "RateLimited") {
          assert.isBelow(later.retryAfterSeconds, first.retryAfterSeconds)
          // After waiting as long as we were told, the account is open again.
          yield* TestClock.adjust(Duration.seconds(later.retryAfterSeconds))
        }
        const session = yield* attempt("alice", password)
        assert.strictEqual(session.member.id, alice.id)
      }).pipe(provideAccountLimitOnly)
    )

    it.effect("the window slides: failures late in one window still count early in the next", () =>
      Effect.gen(function* () {
        const alice = yield* addActiveMember()
        yield* TestClock.adjust("9 minutes")
        yield* failTimes(3, "alice")
        // A fixed window would open at 10 minutes; the sliding one still holds 2.7 of 3 failures.
        yield* TestClock.adjust("1 minute")
        yield* expectRateLimited("alice", password)
        // Once a whole window has passed since the failures, they no longer weigh.
        yield* TestClock.adjust(window)
        const session = yield* attempt("alice", password)
        assert.strictEqual(session.member.id, alice.id)
      }).pipe(provideAccountLimitOnly)
    )

    it.effect("one client failing over many accounts is throttled at maxFailuresPerClient", () =>
      Effect.gen(function* () {
        yield* addActiveMember()
        yield* failOnceForEachOfFiveAccounts
        // Alice never failed, but this client did too often: even her right password is refused.
        yield* expectRateLimited("alice", password)
        yield* expectRateLimited("u6", "whatever")
        // Another client is not affected.
        const session = yield* attempt("alice", password, "192.0.2.99")
        assert.strictEqual(session.member.username, "alice")
      }).pipe(provideClientLimitOnly)
    )

    it.effect("the client counter also slides away within two windows", () =>
      Effect.gen(function* () {
        yield* addActiveMember()
        yield* failOnceForEachOfFiveAccounts
        yield* expectRateLimited("alice", password)
        yield* TestClock.adjust(Duration.times(window, 2))
        const session = yield* attempt("alice", password)
        assert.strictEqual(session.member.username, "alice")
      }).pipe(provideClientLimitOnly)
    )

    it.effect("a successful login clears the account's failure counter", () =>
      Effect.gen(function* () {
        const alice = yield* addActiveMember()
        yield* failTimes(2, "alice")
        yield* attempt("alice", password)
        // Without the reset this would be failure 3 and 4 of the window, and the login below refused.
        yield* failTimes(2, "alice")
        const session = yield* attempt("alice", password)
        assert.strictEqual(session.member.id, alice.id)
      }).pipe(provideAccountLimitOnly)
    )

    it.effect("a rate-limited attempt spends no password hash", () => {
      const { calls, layer } = countingHasher()
      return Effect.gen(function* () {
        yield* addActiveMember()
        yield* failTimes(3, "alice")
        const before = calls.hash + calls.verify
        yield* expectRateLimited("alice", password)
        assert.strictEqual(calls.hash + calls.verify, before)
      }).pipe(Effect.provide(layer), provideAccountLimitOnly)
    })

    it.effect("uses the default policy of 5 failures per account when none is given", () =>
      Effect.gen(function* () {
        yield* addActiveMember()
        yield* failTimes(5, "alice")
        const error = yield* Effect.flip(attempt("alice", password))
        assert.strictEqual(error._tag, "RateLimited")
      }).pipe(provideRoster())
    )
  })
})
