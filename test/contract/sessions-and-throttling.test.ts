import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { hashToken } from "../../adapters/crypto/index.ts"
import { LoginThrottleStore, MemberId, SessionStore } from "../../core/index.ts"
import { assertEquals, at, inParallel, sessionOf, valueOf } from "../support/contract.ts"
import { kitStoreKinds, storeKinds } from "../support/stores.ts"

/** Two adjacent 15-minute windows. */
const window = { start: at(0), end: at(900) }
const nextWindow = { start: at(900), end: at(1800) }

describe.each(kitStoreKinds)("SessionStore on %s", (_, stores) => {
  it.effect("finds a created session by its token hash, and nothing under another hash", () =>
    Effect.gen(function* () {
      const sessions = yield* SessionStore
      const session = sessionOf("token-a", "member-ada", 7)
      yield* sessions.create(session)
      assertEquals(valueOf(yield* sessions.find(session.tokenHash), "the session"), session)
      assert.isTrue(Option.isNone(yield* sessions.find(hashToken("token-b"))))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("revoke answers true for a live session, then false; the session is gone", () =>
    Effect.gen(function* () {
      const sessions = yield* SessionStore
      const kept = sessionOf("token-kept", "member-ada")
      const revoked = sessionOf("token-revoked", "member-ada")
      yield* sessions.create(kept)
      yield* sessions.create(revoked)
      assert.isTrue(yield* sessions.revoke(revoked.tokenHash))
      assert.isTrue(Option.isNone(yield* sessions.find(revoked.tokenHash)))
      assert.isFalse(yield* sessions.revoke(revoked.tokenHash))
      assert.isFalse(yield* sessions.revoke(hashToken("never-issued")))
      assertEquals(valueOf(yield* sessions.find(kept.tokenHash)), kept)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("revokeAllOf removes every session of that member and only theirs", () =>
    Effect.gen(function* () {
      const sessions = yield* SessionStore
      const ada = [sessionOf("ada-1", "member-ada"), sessionOf("ada-2", "member-ada", 1)]
      const grace = sessionOf("grace-1", "member-grace")
      for (const session of [...ada, grace]) yield* sessions.create(session)
      yield* sessions.revokeAllOf(MemberId.make("member-ada"))
      for (const session of ada) assert.isTrue(Option.isNone(yield* sessions.find(session.tokenHash)))
      assertEquals(valueOf(yield* sessions.find(grace.tokenHash)), grace)
      // A member without sessions is no error, and nobody else's are touched.
      yield* sessions.revokeAllOf(MemberId.make("member-nobody"))
      assertEquals(valueOf(yield* sessions.find(grace.tokenHash)), grace)
      assert.isTrue(yield* sessions.revoke(grace.tokenHash))
    }).pipe(Effect.provide(stores()))
  )
})

describe.each(storeKinds)("LoginThrottleStore on %s", (_, stores) => {
  it.effect("counts 1, 2, 3 …", () =>
    Effect.gen(function* () {
      const throttle = yield* LoginThrottleStore
      const counts = []
      for (let i = 0; i < 3; i++)
        counts.push(yield* throttle.increment("member:ada", window.start, window.end))
      assert.deepStrictEqual(counts, [1, 2, 3])
    }).pipe(Effect.provide(stores()))
  )

  it.effect("20 parallel increments of one key and window return exactly the counts 1 to 20", () =>
    Effect.gen(function* () {
      const throttle = yield* LoginThrottleStore
      const counts = yield* inParallel(20, () =>
        throttle.increment("client:203.0.113.7", window.start, window.end)
      )
      assert.deepStrictEqual(
        [...counts].sort((a, b) => a - b),
        Array.from({ length: 20 }, (_, i) => i + 1)
      )
      assert.strictEqual(yield* throttle.increment("client:203.0.113.7", window.start, window.end), 21)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("release takes one attempt back, never below zero", () =>
    Effect.gen(function* () {
      const throttle = yield* LoginThrottleStore
      for (let i = 0; i < 3; i++) yield* throttle.increment("member:ada", window.start, window.end)
      yield* throttle.release("member:ada", window.start)
      assert.strictEqual(yield* throttle.increment("member:ada", window.start, window.end), 3)

      yield* throttle.increment("member:grace", window.start, window.end)
      yield* throttle.release("member:grace", window.start)
      yield* throttle.release("member:grace", window.start)
      assert.strictEqual(yield* throttle.increment("member:grace", window.start, window.end), 1)

      // Releasing a key never counted creates no debt either.
      yield* throttle.release("member:new", window.start)
      assert.strictEqual(yield* throttle.increment("member:new", window.start, window.end), 1)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("parallel releases of more attempts than were counted stop at zero", () =>
    Effect.gen(function* () {
      const throttle = yield* LoginThrottleStore
      for (let i = 0; i < 3; i++) yield* throttle.increment("member:ada", window.start, window.end)
      yield* inParallel(8, () => throttle.release("member:ada", window.start))
      assert.strictEqual(yield* throttle.increment("member:ada", window.start, window.end), 1)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("clear starts the count again", () =>
    Effect.gen(function* () {
      const throttle = yield* LoginThrottleStore
      for (let i = 0; i < 4; i++) yield* throttle.increment("member:ada", window.start, window.end)
      yield* throttle.clear("member:ada", window.start)
      assert.strictEqual(yield* throttle.increment("member:ada", window.start, window.end), 1)
      // Clearing what was never counted is no error.
      yield* throttle.clear("member:nobody", window.start)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("count reads a window's attempts, also the previous window's while the next one counts", () =>
    Effect.gen(function* () {
      const throttle = yield* LoginThrottleStore
      const keepUntil = nextWindow.end
      assert.strictEqual(yield* throttle.count("member:ada", window.start), 0)
      for (let i = 0; i < 3; i++) yield* throttle.increment("member:ada", window.start, keepUntil)
      yield* throttle.increment("member:ada", nextWindow.start, at(2700))
      yield* throttle.increment("member:grace", nextWindow.start, at(2700))
      assert.strictEqual(yield* throttle.count("member:ada", window.start), 3)
      assert.strictEqual(yield* throttle.count("member:ada", nextWindow.start), 1)
      assert.strictEqual(yield* throttle.count("member:grace", window.start), 0)
      yield* throttle.clear("member:ada", window.start)
      assert.strictEqual(yield* throttle.count("member:ada", window.start), 0)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("another key or another window counts on its own", () =>
    Effect.gen(function* () {
      const throttle = yield* LoginThrottleStore
      for (let i = 0; i < 3; i++) yield* throttle.increment("member:ada", window.start, window.end)
      assert.strictEqual(yield* throttle.increment("member:grace", window.start, window.end), 1)
      yield* throttle.clear("member:grace", window.start)
      yield* throttle.release("member:grace", window.start)
      assert.strictEqual(yield* throttle.increment("member:ada", window.start, window.end), 4)

      // Stores may forget a window once a later one is counted: only go forward from here.
      assert.strictEqual(yield* throttle.increment("member:ada", nextWindow.start, nextWindow.end), 1)
      assert.strictEqual(yield* throttle.increment("member:grace", nextWindow.start, nextWindow.end), 1)
      assert.strictEqual(yield* throttle.increment("member:ada", nextWindow.start, nextWindow.end), 2)
      yield* throttle.clear("member:ada", nextWindow.start)
      assert.strictEqual(yield* throttle.increment("member:grace", nextWindow.start, nextWindow.end), 2)
      assert.strictEqual(yield* throttle.increment("member:ada", nextWindow.start, nextWindow.end), 1)
    }).pipe(Effect.provide(stores()))
  )
})
