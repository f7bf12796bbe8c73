import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { hashToken, makeScryptPasswordHasher } from "../../adapters/crypto/index.ts"
import { CurrentRequestId, changeOwnPassword, HashingBusy, PasswordHasher } from "../../core/index.ts"
import { auditRecord } from "../support/audit.ts"
import { attempt, client } from "../support/log-in.ts"
import { actorWith, fastScrypt, password, provideRoster } from "../support/roster.ts"

/** A scrypt hasher that refuses as busy while `busy` says so, as one at its bound does. */
const busyHasher = () => {
  const busy = { hash: false, verify: false }
  const inner = makeScryptPasswordHasher(fastScrypt)
  const refused = Effect.fail(new HashingBusy({ retryAfterSeconds: 1 }))
  const layer = Layer.succeed(
    PasswordHasher,
    PasswordHasher.of({
      hash: (secret) => Effect.suspend(() => (busy.hash ? refused : inner.hash(secret))),
      verify: (hash, secret) => Effect.suspend(() => (busy.verify ? refused : inner.verify(hash, secret)))
    })
  )
  return { busy, layer }
}

const oneFailureAllowed = { throttle: { maxFailuresPerAccount: 1, maxFailuresPerClient: 100 } }

const newPassword = Redacted.make("a brand new passphrase")

describe("password attempts", () => {
  it.effect("a login refused by busy hashing is given back: it guessed nothing", () => {
    const { busy, layer } = busyHasher()
    return Effect.gen(function* () {
      yield* actorWith("ada", [])
      busy.verify = true
      const refused = yield* Effect.flip(attempt("ada", "a wrong guess"))
      assert.instanceOf(refused, HashingBusy)
      assert.strictEqual(refused.retryAfterSeconds, 1, "when to retry reaches the caller")
      busy.verify = false
      assert.strictEqual((yield* Effect.flip(attempt("ada", "a wrong guess")))._tag, "InvalidCredentials")
      busy.hash = true
      assert.instanceOf(yield* Effect.flip(attempt("ghost", "a wrong guess")), HashingBusy)
      busy.hash = false
      assert.strictEqual((yield* Effect.flip(attempt("ghost", "a wrong guess")))._tag, "InvalidCredentials")
    }).pipe(Effect.provide(layer), provideRoster(oneFailureAllowed))
  })

  it.effect("a password change refused by busy hashing is given back, whichever hash was busy", () => {
    const { busy, layer } = busyHasher()
    return Effect.gen(function* () {
      const ada = yield* actorWith("ada", [])
      const change = changeOwnPassword(
        ada.principal,
        { currentPassword: Redacted.make(password), newPassword },
        client
      )
      busy.verify = true
      assert.instanceOf(yield* Effect.flip(change), HashingBusy)
      busy.verify = false
      busy.hash = true
      assert.instanceOf(yield* Effect.flip(change), HashingBusy)
      busy.hash = false
      yield* change
    }).pipe(Effect.provide(layer), provideRoster(oneFailureAllowed))
  })

  it.effect("guesses at one's current password count against the account's logins", () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", [])
      const wrong = yield* Effect.flip(
        changeOwnPassword(
          ada.principal,
          { currentPassword: Redacted.make("a wrong guess"), newPassword },
          "192.0.2.1"
        )
      )
      assert.strictEqual(wrong._tag, "WrongPassword")
      assert.strictEqual((yield* Effect.flip(attempt("ada", password, "192.0.2.1")))._tag, "RateLimited")
    }).pipe(provideRoster(oneFailureAllowed))
  )

  it.effect("each unknown login is counted on its own, whatever its spelling", () =>
    Effect.gen(function* () {
      assert.strictEqual((yield* Effect.flip(attempt("ghost", "a wrong guess")))._tag, "InvalidCredentials")
      assert.strictEqual((yield* Effect.flip(attempt(" GHOST ", "a wrong guess")))._tag, "RateLimited")
      assert.strictEqual((yield* Effect.flip(attempt("phantom", "a wrong guess")))._tag, "InvalidCredentials")
    }).pipe(provideRoster(oneFailureAllowed))
  )

  it.effect(
    "a failed login is recorded against the account it named (a digest when none), with the client",
    () =>
      Effect.gen(function* () {
        const ada = yield* actorWith("ada", [])
        yield* Effect.flip(attempt(" GhOsT ", "a wrong guess", "192.0.2.44")).pipe(
          Effect.provideService(CurrentRequestId, "req-9")
        )
        yield* Effect.flip(attempt("ADA", "a wrong guess", "192.0.2.45"))
        yield* Effect.flip(attempt("ada@example.com", password, "192.0.2.45"))
        const logins = (yield* auditRecord).filter((entry) => entry.target.type === "login")
        // What was typed is not kept: only a digest of it as compared, the same for every spelling.
        const ghostDigest = `unknown:${hashToken("ghost").slice(0, 16)}`
        assert.notInclude(JSON.stringify(logins), "GhOsT")
        assert.deepStrictEqual(
          logins.map((entry) => ({ action: entry.action, id: entry.target.id, changes: entry.changes })),
          [
            { action: "login.throttled", id: ada.member.id, changes: { client: [null, "192.0.2.45"] } },
            { action: "login.failed", id: ada.member.id, changes: { client: [null, "192.0.2.45"] } },
            { action: "login.failed", id: ghostDigest, changes: { client: [null, "192.0.2.44"] } }
          ]
        )
        assert.deepStrictEqual(logins[2]?.actor, { kind: "open" })
        assert.strictEqual(logins[2]?.requestId, "req-9")
      }).pipe(provideRoster(oneFailureAllowed))
  )
})
