import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  addMember,
  addRole,
  authenticate,
  type Session,
  SessionStore,
  setAccountStatus,
  TokenIssuer
} from "../../core/index.ts"
import { addActiveMember, attempt, countingHasher } from "../support/log-in.ts"
import { master, memberInput, password, provideRoster, roleWith } from "../support/roster.ts"
import { makeSessionStore } from "../support/sessions.ts"

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
    it.effect.each([
      ["the username, in any case", ["alice", "ALICE", "Alice"]],
      [
        "the e-mail address, in any case and with surrounding spaces",
        ["alice@example.com", "Alice@Example.COM", "  ALICE@EXAMPLE.COM "]
      ]
    ] as const)("accepts %s", ([, logins]) =>
      Effect.gen(function* () {
        const alice = yield* addActiveMember()
        for (const login of logins) {
          const session = yield* attempt(login, password)
          assert.strictEqual(session.member.id, alice.id)
        }
      }).pipe(provideRoster())
    )

    it.effect("the returned member carries no password or hash", () =>
      Effect.gen(function* () {
        yield* addActiveMember()
        const session = yield* attempt("alice", password)
        assert.isFalse("passwordHash" in session.member)
        assert.isFalse(JSON.stringify(session.member).includes(password))
      }).pipe(provideRoster())
    )

    it.effect("a wrong password and an unknown user fail with the same InvalidCredentials", () =>
      Effect.gen(function* () {
        yield* addActiveMember()
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
        yield* addActiveMember()
        const error = yield* Effect.flip(attempt("alice", password.toUpperCase()))
        assert.strictEqual(error._tag, "InvalidCredentials")
      }).pipe(provideRoster())
    )

    it.effect("an unknown user still spends one password hash, like a wrong password does", () => {
      const { calls, layer } = countingHasher()
      return Effect.gen(function* () {
        yield* addActiveMember()
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
        const alice = yield* addActiveMember()
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
        yield* addActiveMember()
        const { token } = yield* attempt("alice", password)
        assert.isTrue(Redacted.isRedacted(token))
        const raw = Redacted.value(token)
        assert.isFalse(String(token).includes(raw))
        assert.isFalse(JSON.stringify({ token }).includes(raw))
      }).pipe(provideRoster())
    )

    it.effect("carries at least 128 random bits and is never repeated", () =>
      Effect.gen(function* () {
        yield* addActiveMember()
        const tokens = new Set<string>()
        const logins = 40
        for (let i = 0; i < logins; i++) {
          const raw = Redacted.value((yield* attempt("alice", password)).token)
          const random = raw.replace(/^rss_/, "")
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
        const alice = yield* addActiveMember()
        const { token } = yield* attempt("alice", password)
        const raw = Redacted.value(token)
        const hash = yield* (yield* TokenIssuer).hashOf(token)
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
        yield* addActiveMember()
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
        yield* addActiveMember()
        const session = yield* attempt("alice", password)
        assert.strictEqual(DateTime.toEpochMillis(session.expiresAt), Duration.toMillis(Duration.hours(12)))
      }).pipe(provideRoster())
    )

    it.effect("authenticates as the member who logged in", () =>
      Effect.gen(function* () {
        const alice = yield* addActiveMember()
        const { token } = yield* attempt("ALICE@example.com", password)
        const principal = yield* authenticate(Option.some(token))
        assert.strictEqual(principal._tag, "Member")
        if (principal._tag === "Member") assert.strictEqual(principal.member.id, alice.id)
      }).pipe(provideRoster())
    )
  })
})
