import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { hashToken } from "../../adapters/crypto/index.ts"
import { authenticate, logOut, SessionStore, setAccountStatus } from "../../core/index.ts"
import { corePortsOn, inParallel } from "../support/contract.ts"
import { addActiveMember, attempt, client } from "../support/log-in.ts"
import { logInAs, master, password, signedInMember } from "../support/roster.ts"
import { storeKinds } from "../support/stores.ts"

/** The tag of the error `token` is refused with, or "ok" for the member it authenticates. */
const verdict = (token: Redacted.Redacted<string>) =>
  authenticate(Option.some(token)).pipe(
    Effect.map((principal) =>
      principal._tag === "Member" ? `ok:${principal.member.username}` : "not a member"
    ),
    Effect.catchTag("Unauthenticated", (error) => Effect.succeed(`Unauthenticated:${error.reason}`))
  )

/** Whether the store still holds the session of `token`. */
const isStored = (token: Redacted.Redacted<string>) =>
  Effect.flatMap(SessionStore, (sessions) => sessions.find(hashToken(Redacted.value(token)))).pipe(
    Effect.map(Option.isSome)
  )

/** The tag of each failure of `times` attempts, in order. */
const failures = (times: number, username: string, secret: string, from = client) =>
  Effect.forEach(Array.from({ length: times }), () =>
    Effect.flip(attempt(username, secret, from)).pipe(Effect.map((error) => error._tag))
  )

const repeat = <A>(times: number, value: A) => Array.from({ length: times }, () => value)

describe.each(storeKinds)("sessions through authenticate on %s", (_, stores) => {
  it.effect("a session authenticates until it expires, then is refused as expired", () =>
    Effect.gen(function* () {
      const { token } = yield* signedInMember("alice", ["team.read"])
      yield* TestClock.adjust(Duration.sum(Duration.minutes(59), Duration.millis(59_999)))
      assert.strictEqual(yield* verdict(token), "ok:alice")
      yield* TestClock.adjust("1 millis")
      assert.strictEqual(yield* verdict(token), "Unauthenticated:expired")
      const fresh = yield* logInAs("alice")
      assert.strictEqual(yield* verdict(fresh.token), "ok:alice")
    }).pipe(Effect.provide(corePortsOn(stores(), { sessionTtl: "1 hour" })))
  )

  it.effect("logging out revokes that session only", () =>
    Effect.gen(function* () {
      const { token } = yield* signedInMember("alice", ["team.read"])
      const other = yield* logInAs("alice")
      assert.deepStrictEqual(yield* logOut(yield* authenticate(Option.some(token))), { revoked: true })
      assert.strictEqual(yield* verdict(token), "Unauthenticated:invalid")
      assert.isFalse(yield* isStored(token))
      assert.strictEqual(yield* verdict(other.token), "ok:alice")
    }).pipe(Effect.provide(corePortsOn(stores())))
  )

  it.effect("disabling an account ends its sessions for good; a new login after enabling works", () =>
    Effect.gen(function* () {
      const alice = yield* signedInMember("alice", ["team.read"])
      const second = yield* logInAs("alice")
      const bob = yield* signedInMember("bob", ["team.read"])

      yield* setAccountStatus(master, { memberId: alice.member.id, active: false })
      for (const token of [alice.token, second.token]) {
        assert.strictEqual(yield* verdict(token), "Unauthenticated:invalid")
        assert.isFalse(yield* isStored(token))
      }
      assert.strictEqual(yield* verdict(bob.token), "ok:bob")

      yield* setAccountStatus(master, { memberId: alice.member.id, active: true })
      assert.strictEqual(yield* verdict(alice.token), "Unauthenticated:invalid")
      assert.strictEqual(yield* verdict((yield* logInAs("alice")).token), "ok:alice")
    }).pipe(Effect.provide(corePortsOn(stores())))
  )
})

describe.each(storeKinds)("log-in throttling on %s", (_, stores) => {
  const window = Duration.minutes(15)
  const accountLimitOnly = { window, maxFailuresPerAccount: 3, maxFailuresPerClient: 100 }

  it.effect("20 parallel wrong guesses: 3 are checked, 17 refused; the sliding window lifts the lock", () =>
    Effect.gen(function* () {
      yield* addActiveMember("alice")
      const outcomes = yield* inParallel(20, () =>
        Effect.flip(attempt("alice", "wrong password")).pipe(Effect.map((error) => error._tag))
      )
      assert.strictEqual(outcomes.filter((tag) => tag === "InvalidCredentials").length, 3)
      assert.strictEqual(outcomes.filter((tag) => tag === "RateLimited").length, 17)
      // Locked even for the right password, and by the e-mail too.
      assert.deepStrictEqual(yield* failures(1, "alice", password), ["RateLimited"])
      assert.deepStrictEqual(yield* failures(1, "Alice@Example.com", password), ["RateLimited"])

      // The window slides: the failures weigh until a whole window has passed since the last one.
      yield* TestClock.adjust(window)
      assert.deepStrictEqual(yield* failures(1, "alice", password), ["RateLimited"])
      yield* TestClock.adjust(window)
      const session = yield* attempt("alice", password)
      assert.strictEqual(session.member.username, "alice")
    }).pipe(Effect.provide(corePortsOn(stores(), { throttle: accountLimitOnly })))
  )

  it.effect("a successful login clears the account's count", () =>
    Effect.gen(function* () {
      yield* addActiveMember("alice")
      assert.deepStrictEqual(yield* failures(2, "alice", "wrong password"), repeat(2, "InvalidCredentials"))
      yield* attempt("alice", password)
      assert.deepStrictEqual(yield* failures(4, "alice", "wrong password"), [
        ...repeat(3, "InvalidCredentials"),
        "RateLimited"
      ])
    }).pipe(Effect.provide(corePortsOn(stores(), { throttle: accountLimitOnly })))
  )

  it.effect("a client's failures add up across accounts; a success gives its attempt back", () =>
    Effect.gen(function* () {
      yield* addActiveMember("alice")
      for (const username of ["u1", "u2", "u3", "u4"]) {
        assert.deepStrictEqual(yield* failures(1, username, "wrong password"), ["InvalidCredentials"])
      }
      yield* attempt("alice", password)
      // The success counted and was given back: one more failure is allowed, then the client is locked.
      assert.deepStrictEqual(yield* failures(2, "u5", "wrong password"), [
        "InvalidCredentials",
        "RateLimited"
      ])
      assert.deepStrictEqual(yield* failures(1, "alice", password), ["RateLimited"])
      // Another client is not affected.
      const elsewhere = yield* attempt("alice", password, "198.51.100.9")
      assert.strictEqual(elsewhere.member.username, "alice")
    }).pipe(
      Effect.provide(
        corePortsOn(stores(), { throttle: { window, maxFailuresPerAccount: 100, maxFailuresPerClient: 5 } })
      )
    )
  )
})
