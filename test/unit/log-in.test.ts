import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { makeScryptPasswordHasher } from "../../adapters/crypto/index.ts"
import { makeSessionStore } from "../../adapters/memory/index.ts"
import {
  addMember,
  addRole,
  authenticate,
  logIn,
  PasswordHasher,
  type Session,
  SessionStore,
  SessionTokens,
  setAccountStatus
} from "../../core/index.ts"
import { fastScrypt, master, memberInput, password, provideRoster, roleWith } from "../support/roster.ts"

const client = "203.0.113.7"

const attempt = (username: string, secret: string, from: string = client) =>
  logIn({ username, password: Redacted.make(secret), client: from })

/** Adds an active member `username` (password `password`) of a role with `team.read`. */
const addAlice = (username = "alice") =>
  Effect.gen(function* () {
    const role = yield* roleWith(`${username}-role`, ["team.read"])
    return yield* addMember(master, memberInput(username, role.id))
  })

/** A scrypt hasher that counts its calls. */
const countingHasher = () => {
  const calls = { hash: 0, verify: 0 }
  const inner = makeScryptPasswordHasher(fastScrypt)
  const layer = Layer.succeed(
    PasswordHasher,
    PasswordHasher.of({
      hash: (secret) =>
        Effect.sync(() => {
          calls.hash++
        }).pipe(Effect.andThen(inner.hash(secret))),
      verify: (hash, secret) =>
        Effect.sync(() => {
          calls.verify++
        }).pipe(Effect.andThen(inner.verify(hash, secret)))
    })
  )
  return { calls, layer }
}

/** The in-memory session store, recording every session written to it. */
const recordingSessionStore = () => {
  const created: Array<Session> = []
  const layer = Layer.effect(
    SessionStore,
    Effect.map(makeSessionStore, (store) =>
      SessionStore.of({
        ...store,
        create: (session) =>
          Effect.sync(() => {
            created.push(session)
          }).pipe(Effect.andThen(store.create(session)))
      })
    )
  )
  return { created, layer }
}

describe("logIn", () => {
  describe("credentials", () => {
    it.effect("accepts the username, in any case", () =>
      Effect.gen(function* () {
        const alice = yield* addAlice()
        for (const login of ["alice", "ALICE", "Alice"]) {
          const session = yield* attempt(login, password)
          assert.strictEqual(session.member.id, alice.id)
        }
      }).pipe(provideRoster())
    )

    it.effect("accepts the e-mail address, in any case and with surrounding spaces", () =>
      Effect.gen(function* () {
        const alice = yield* addAlice()
        for (const login of ["alice@example.com", "Alice@Example.COM", "  ALICE@EXAMPLE.COM "]) {
          const session = yield* attempt(login, password)
          assert.strictEqual(session.member.id, alice.id)
        }
      }).pipe(provideRoster())
    )

    it.effect("the returned member carries no password or hash", () =>
      Effect.gen(function* () {
        yield* addAlice()
        const session = yield* attempt("alice", password)
        assert.isFalse("passwordHash" in session.member)
        assert.isFalse(JSON.stringify(session.member).includes(password))
      }).pipe(provideRoster())
    )

    it.effect("a wrong password and an unknown user fail with the same InvalidCredentials", () =>
      Effect.gen(function* () {
        yield* addAlice()
        const wrongPassword = yield* Effect.flip(attempt("alice", `${password}!`))
        const unknownUser = yield* Effect.flip(attempt("mallory", password))
        const unknownEmail = yield* Effect.flip(attempt("mallory@example.com", password))
        assert.strictEqual(wrongPassword._tag, "InvalidCredentials")
        assert.deepStrictEqual(unknownUser, wrongPassword)
        assert.deepStrictEqual(unknownEmail, wrongPassword)
      }).pipe(provideRoster())
    )

    it.effect("the password is case-sensitive", () =>
      Effect.gen(function* () {
        yield* addAlice()
        const error = yield* Effect.flip(attempt("alice", password.toUpperCase()))
        assert.strictEqual(error._tag, "InvalidCredentials")
      }).pipe(provideRoster())
    )

    it.effect("an unknown user still spends one password hash, like a wrong password does", () => {
      const { calls, layer } = countingHasher()
      return Effect.gen(function* () {
        yield* addAlice()
        const before = { ...calls }

        yield* Effect.flip(attempt("mallory", password))
        const unknownCost = calls.hash - before.hash + (calls.verify - before.verify)
        assert.strictEqual(unknownCost, 1)

        const middle = { ...calls }
        yield* Effect.flip(attempt("alice", "not the password"))
        assert.strictEqual(calls.verify - middle.verify, 1)
        assert.strictEqual(calls.hash - middle.hash, 0)
      }).pipe(Effect.provide(layer), provideRoster())
    })

    it.effect("an inactive account with the correct password cannot log in", () =>
      Effect.gen(function* () {
        const alice = yield* addAlice()
        yield* setAccountStatus(master, { memberId: alice.id, active: false })
        const error = yield* Effect.flip(attempt("alice", password))
        assert.strictEqual(error._tag, "Forbidden")
        // Re-enabling the account lets the member in again.
        yield* setAccountStatus(master, { memberId: alice.id, active: true })
        const session = yield* attempt("alice", password)
        assert.strictEqual(session.member.id, alice.id)
      }).pipe(provideRoster())
    )

    it.effect("a member whose membership is inactive cannot log in", () =>
      Effect.gen(function* () {
        const role = yield* roleWith("dormant-role", ["team.read"])
        yield* addMember(master, memberInput("dormant", role.id, { activestatus: false }))
        const error = yield* Effect.flip(attempt("dormant", password))
        assert.strictEqual(error._tag, "Forbidden")
      }).pipe(provideRoster())
    )

    it.effect("a member of an inactive role cannot log in", () =>
      Effect.gen(function* () {
        const role = yield* addRole(master, { name: "Frozen", roleKey: "frozen", activeStatus: false })
        yield* addMember(master, memberInput("frozen", role.id))
        const error = yield* Effect.flip(attempt("frozen", password))
        assert.strictEqual(error._tag, "Forbidden")
      }).pipe(provideRoster())
    )
  })

  describe("the session token", () => {
    it.effect("is Redacted and does not show in its string form", () =>
      Effect.gen(function* () {
        yield* addAlice()
        const { token } = yield* attempt("alice", password)
        assert.isTrue(Redacted.isRedacted(token))
        const raw = Redacted.value(token)
        assert.isFalse(String(token).includes(raw))
        assert.isFalse(JSON.stringify({ token }).includes(raw))
      }).pipe(provideRoster())
    )

    it.effect("carries at least 128 random bits and is never repeated", () =>
      Effect.gen(function* () {
        yield* addAlice()
        const tokens = new Set<string>()
        const logins = 40
        for (let i = 0; i < logins; i++) {
          const raw = Redacted.value((yield* attempt("alice", password)).token)
          const random = raw.replace(/^rst_/, "")
          assert.match(random, /^[A-Za-z0-9_-]+$/)
          // 22 base64url characters hold 132 bits.
          assert.isAtLeast(random.length, 22)
          tokens.add(raw)
        }
        assert.strictEqual(tokens.size, logins)
      }).pipe(provideRoster())
    )

    it.effect("is stored only as its hash", () => {
      const { created, layer } = recordingSessionStore()
      return Effect.gen(function* () {
        const alice = yield* addAlice()
        const { token } = yield* attempt("alice", password)
        const raw = Redacted.value(token)
        const hash = yield* (yield* SessionTokens).hashOf(token)
        assert.notStrictEqual(hash as string, raw)

        assert.strictEqual(created.length, 1)
        const [stored] = created
        assert.strictEqual(stored?.tokenHash, hash)
        assert.strictEqual(stored?.memberId, alice.id)
        for (const value of Object.values(stored ?? {})) assert.notStrictEqual(String(value), raw)
        assert.isFalse(JSON.stringify(stored).includes(raw))

        const store = yield* SessionStore
        const found = yield* store.find(hash)
        assert.isTrue(Option.isSome(found))
        assert.isTrue(Option.isNone(yield* store.find(raw as typeof hash)))
      }).pipe(Effect.provide(layer), provideRoster())
    })

    it.effect("expires sessionTtl after the login", () =>
      Effect.gen(function* () {
        yield* addAlice()
        yield* TestClock.adjust("3 hours")
        const now = yield* DateTime.now
        const session = yield* attempt("alice", password)
        assert.strictEqual(
          DateTime.toEpochMillis(session.expiresAt),
          DateTime.toEpochMillis(now) + Duration.toMillis(Duration.hours(2))
        )
      }).pipe(provideRoster({ sessionTtl: "2 hours" }))
    )

    it.effect("expires after 12 hours by default", () =>
      Effect.gen(function* () {
        yield* addAlice()
        const session = yield* attempt("alice", password)
        assert.strictEqual(DateTime.toEpochMillis(session.expiresAt), Duration.toMillis(Duration.hours(12)))
      }).pipe(provideRoster())
    )

    it.effect("authenticates as the member who logged in", () =>
      Effect.gen(function* () {
        const alice = yield* addAlice()
        const { token } = yield* attempt("ALICE@example.com", password)
        const principal = yield* authenticate(Option.some(token))
        assert.strictEqual(principal._tag, "Member")
        if (principal._tag === "Member") assert.strictEqual(principal.member.id, alice.id)
      }).pipe(provideRoster())
    )
  })

  describe("throttling", () => {
    const window = Duration.minutes(10)
    const throttle = { window, maxFailuresPerAccount: 3, maxFailuresPerClient: 5 }

    const failTimes = (times: number, username: string, from: string = client) =>
      Effect.gen(function* () {
        for (let i = 0; i < times; i++) {
          const error = yield* Effect.flip(attempt(username, "wrong password", from))
          assert.strictEqual(error._tag, "InvalidCredentials", `failure ${i + 1} of ${username}`)
        }
      })

    const expectRateLimited = (username: string, secret: string, from: string = client) =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(attempt(username, secret, from))
        assert.strictEqual(error._tag, "RateLimited")
        if (error._tag === "RateLimited") {
          assert.isAbove(error.retryAfterSeconds, 0)
          assert.isAtMost(error.retryAfterSeconds, Duration.toSeconds(window))
          assert.isTrue(Number.isInteger(error.retryAfterSeconds))
        }
      })

    it.effect("an account is locked after maxFailuresPerAccount failures, even for the right password", () =>
      Effect.gen(function* () {
        yield* addAlice()
        yield* failTimes(3, "alice")
        yield* expectRateLimited("alice", password)
        yield* expectRateLimited("alice", "wrong password")
      }).pipe(provideRoster({ throttle: { ...throttle, maxFailuresPerClient: 100 } }))
    )

    it.effect("the account is locked whichever client calls and whichever spelling of the login", () =>
      Effect.gen(function* () {
        yield* addAlice()
        yield* failTimes(1, "alice", "198.51.100.1")
        yield* failTimes(1, "ALICE", "198.51.100.2")
        yield* failTimes(1, " Alice ", "198.51.100.3")
        yield* expectRateLimited("alice", password, "198.51.100.4")
      }).pipe(provideRoster({ throttle: { ...throttle, maxFailuresPerClient: 100 } }))
    )

    it.effect("fewer failures than the limit do not lock the account", () =>
      Effect.gen(function* () {
        const alice = yield* addAlice()
        yield* failTimes(2, "alice")
        const session = yield* attempt("alice", password)
        assert.strictEqual(session.member.id, alice.id)
      }).pipe(provideRoster({ throttle: { ...throttle, maxFailuresPerClient: 100 } }))
    )

    it.effect("failures for an unknown account count too", () =>
      Effect.gen(function* () {
        yield* failTimes(3, "ghost")
        yield* expectRateLimited("ghost", password)
      }).pipe(provideRoster({ throttle: { ...throttle, maxFailuresPerClient: 100 } }))
    )

    it.effect("a locked account does not lock other accounts", () =>
      Effect.gen(function* () {
        yield* addAlice()
        const bob = yield* addAlice("bob")
        yield* failTimes(3, "alice")
        yield* expectRateLimited("alice", password)
        const session = yield* attempt("bob", password)
        assert.strictEqual(session.member.id, bob.id)
      }).pipe(provideRoster({ throttle: { ...throttle, maxFailuresPerClient: 100 } }))
    )

    it.effect("the retry delay counts down and the lock ends with the window", () =>
      Effect.gen(function* () {
        const alice = yield* addAlice()
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
      }).pipe(provideRoster({ throttle: { ...throttle, maxFailuresPerClient: 100 } }))
    )

    it.effect("login works again once a whole window has passed", () =>
      Effect.gen(function* () {
        const alice = yield* addAlice()
        yield* TestClock.adjust("7 minutes")
        yield* failTimes(3, "alice")
        yield* expectRateLimited("alice", password)
        yield* TestClock.adjust(window)
        const session = yield* attempt("alice", password)
        assert.strictEqual(session.member.id, alice.id)
      }).pipe(provideRoster({ throttle: { ...throttle, maxFailuresPerClient: 100 } }))
    )

    it.effect("one client failing over many accounts is throttled at maxFailuresPerClient", () =>
      Effect.gen(function* () {
        yield* addAlice()
        for (const username of ["u1", "u2", "u3", "u4", "u5"]) yield* failTimes(1, username)
        // Alice never failed, but this client did too often: even her right password is refused.
        yield* expectRateLimited("alice", password)
        yield* expectRateLimited("u6", "whatever")
        // Another client is not affected.
        const session = yield* attempt("alice", password, "192.0.2.99")
        assert.strictEqual(session.member.username, "alice")
      }).pipe(provideRoster({ throttle: { ...throttle, maxFailuresPerAccount: 100 } }))
    )

    it.effect("the client counter also ends with the window", () =>
      Effect.gen(function* () {
        yield* addAlice()
        for (const username of ["u1", "u2", "u3", "u4", "u5"]) yield* failTimes(1, username)
        yield* expectRateLimited("alice", password)
        yield* TestClock.adjust(window)
        const session = yield* attempt("alice", password)
        assert.strictEqual(session.member.username, "alice")
      }).pipe(provideRoster({ throttle: { ...throttle, maxFailuresPerAccount: 100 } }))
    )

    it.effect("a successful login clears the account's failure counter", () =>
      Effect.gen(function* () {
        const alice = yield* addAlice()
        yield* failTimes(2, "alice")
        yield* attempt("alice", password)
        // Without the reset this would be failure 3 and 4 of the window, and the login below refused.
        yield* failTimes(2, "alice")
        const session = yield* attempt("alice", password)
        assert.strictEqual(session.member.id, alice.id)
      }).pipe(provideRoster({ throttle: { ...throttle, maxFailuresPerClient: 100 } }))
    )

    it.effect("a rate-limited attempt spends no password hash", () => {
      const { calls, layer } = countingHasher()
      return Effect.gen(function* () {
        yield* addAlice()
        yield* failTimes(3, "alice")
        const before = calls.hash + calls.verify
        yield* expectRateLimited("alice", password)
        assert.strictEqual(calls.hash + calls.verify, before)
      }).pipe(Effect.provide(layer), provideRoster({ throttle: { ...throttle, maxFailuresPerClient: 100 } }))
    })

    it.effect("uses the default policy of 5 failures per account when none is given", () =>
      Effect.gen(function* () {
        yield* addAlice()
        yield* failTimes(5, "alice")
        const error = yield* Effect.flip(attempt("alice", password))
        assert.strictEqual(error._tag, "RateLimited")
      }).pipe(provideRoster())
    )
  })
})
