import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { makeScryptPasswordHasher } from "../../adapters/crypto/index.ts"
import { composedSessionLookupLayer } from "../../adapters/memory/session-lookup.ts"
import {
  authenticate,
  logOut,
  type MemberId,
  PasswordHasher,
  type Principal,
  SessionStore,
  setAccountStatus
} from "../../core/index.ts"
import { fastScrypt, logInAs, master, masterKey, provideRoster, signedInMember } from "../support/roster.ts"
import { makeSessionStore } from "../support/sessions.ts"

const expectUnauthenticated = (
  token: Redacted.Redacted<string>,
  reason?: "missing" | "invalid" | "expired"
) =>
  Effect.gen(function* () {
    const error = yield* Effect.flip(authenticate(Option.some(token)))
    assert.strictEqual(error._tag, "Unauthenticated")
    if (reason !== undefined && error._tag === "Unauthenticated") assert.strictEqual(error.reason, reason)
  })

const expectMember = (token: Redacted.Redacted<string>, memberId: string) =>
  Effect.gen(function* () {
    const principal = yield* authenticate(Option.some(token))
    if (principal._tag !== "Member") return assert.fail(`expected a Member principal, got ${principal._tag}`)
    assert.strictEqual(principal.member.id, memberId)
    return principal
  })

/** Waits a minute, then sets the account of `memberId` (in)active: each change gets its own instant. */
const aMinuteLaterSetActive = (memberId: MemberId, active: boolean) =>
  TestClock.adjust("1 minute").pipe(Effect.andThen(setAccountStatus(master, { memberId, active })))

/**
 * The in-memory session store with `revokeAllOf` doing nothing, so only the member's cut-off
 * protects; authentication looks sessions up in it too (a fresh lookup: the roster's own was built
 * on the roster's session store).
 */
const storeThatForgetsToRevoke = Layer.fresh(composedSessionLookupLayer).pipe(
  Layer.provideMerge(
    Layer.effect(
      SessionStore,
      Effect.map(makeSessionStore, (store) => SessionStore.of({ ...store, revokeAllOf: () => Effect.void }))
    )
  )
)

describe("sessions", () => {
  describe("expiry", () => {
    it.effect("a token works until its expiry, then is Unauthenticated (expired)", () =>
      Effect.gen(function* () {
        const { member, token } = yield* signedInMember("alice", ["team.read"])
        yield* TestClock.adjust("59 minutes")
        yield* expectMember(token, member.id)
        yield* TestClock.adjust("59999 millis")
        yield* expectMember(token, member.id)
        yield* TestClock.adjust("1 millis")
        yield* expectUnauthenticated(token, "expired")
        yield* TestClock.adjust("30 days")
        yield* expectUnauthenticated(token)
      }).pipe(provideRoster({ sessionTtl: "1 hour" }))
    )

    it.effect("by default a token lasts 12 hours", () =>
      Effect.gen(function* () {
        const { member, token } = yield* signedInMember("alice", ["team.read"])
        yield* TestClock.adjust("11 hours")
        yield* expectMember(token, member.id)
        yield* TestClock.adjust("1 hour")
        yield* expectUnauthenticated(token, "expired")
      }).pipe(provideRoster())
    )

    it.effect("a new login after expiry gives a fresh working token", () =>
      Effect.gen(function* () {
        const { member, token } = yield* signedInMember("alice", ["team.read"])
        yield* TestClock.adjust("13 hours")
        yield* expectUnauthenticated(token, "expired")
        const fresh = yield* logInAs("alice")
        yield* expectMember(fresh.token, member.id)
      }).pipe(provideRoster())
    )
  })

  describe("logOut", () => {
    it.effect("revokes the caller's session: its token no longer authenticates", () =>
      Effect.gen(function* () {
        const { member, token } = yield* signedInMember("alice", ["team.read"])
        const principal = yield* expectMember(token, member.id)
        assert.deepStrictEqual(yield* logOut(principal), { revoked: true })
        yield* expectUnauthenticated(token, "invalid")
        // A second logout of the same (stale) principal has nothing left to revoke.
        assert.deepStrictEqual(yield* logOut(principal), { revoked: false })
      }).pipe(provideRoster())
    )

    it.effect("revokes only the calling session, not the member's other sessions", () =>
      Effect.gen(function* () {
        const { member, token } = yield* signedInMember("alice", ["team.read"])
        const other = yield* logInAs("alice")
        yield* logOut(yield* expectMember(token, member.id))
        yield* expectUnauthenticated(token)
        yield* expectMember(other.token, member.id)
      }).pipe(provideRoster())
    )

    it.effect("a master principal has no session: revoked is false and the key keeps working", () =>
      Effect.gen(function* () {
        const { member, token } = yield* signedInMember("alice", ["team.read"])
        const key = Redacted.make(masterKey)
        // The store is not even asked: there is no session of theirs to name.
        const sessions = yield* SessionStore
        const logOutAsking = (principal: Principal) =>
          Effect.provideService(logOut(principal), SessionStore, {
            ...sessions,
            revoke: () => Effect.die("asked to revoke a session of a principal without one")
          })
        assert.deepStrictEqual(yield* logOutAsking(yield* authenticate(Option.some(key))), { revoked: false })
        assert.deepStrictEqual(yield* authenticate(Option.some(key)), { _tag: "Master" })
        const open: Principal = { _tag: "OpenLocal" }
        assert.deepStrictEqual(yield* logOutAsking(open), { revoked: false })
        // Nobody else's session was touched.
        yield* expectMember(token, member.id)
      }).pipe(provideRoster())
    )
  })

  describe("account deactivation", () => {
    it.effect("revokes every session of the member at once", () =>
      Effect.gen(function* () {
        const { member, token } = yield* signedInMember("alice", ["team.read"])
        const second = yield* logInAs("alice")
        const hashes = [
          (yield* expectMember(token, member.id)).sessionTokenHash,
          (yield* expectMember(second.token, member.id)).sessionTokenHash
        ]
        yield* setAccountStatus(master, { memberId: member.id, active: false })
        yield* expectUnauthenticated(token)
        yield* expectUnauthenticated(second.token)
        // The sessions are gone from the store, not merely refused.
        const store = yield* SessionStore
        for (const hash of hashes) assert.isTrue(Option.isNone(yield* store.find(hash)))
      }).pipe(provideRoster())
    )

    it.effect("does not touch other members' sessions", () =>
      Effect.gen(function* () {
        const alice = yield* signedInMember("alice", ["team.read"])
        const bob = yield* signedInMember("bob", ["team.read"])
        yield* setAccountStatus(master, { memberId: alice.member.id, active: false })
        yield* expectUnauthenticated(alice.token)
        yield* expectMember(bob.token, bob.member.id)
      }).pipe(provideRoster())
    )

    it.effect("reactivation does not revive the old sessions, but a new login works", () =>
      Effect.gen(function* () {
        const { member, token } = yield* signedInMember("alice", ["team.read"])
        yield* aMinuteLaterSetActive(member.id, false)
        yield* aMinuteLaterSetActive(member.id, true)
        yield* expectUnauthenticated(token)
        yield* TestClock.adjust("1 minute")
        const fresh = yield* logInAs("alice")
        yield* expectMember(fresh.token, member.id)
        yield* expectUnauthenticated(token)
      }).pipe(provideRoster())
    )

    it.effect("the member's cut-off voids old sessions even when the store keeps them", () =>
      Effect.gen(function* () {
        const { member, token } = yield* signedInMember("alice", ["team.read"])
        yield* aMinuteLaterSetActive(member.id, false)
        // The store still holds the session, yet it must not authenticate.
        yield* expectUnauthenticated(token)
        yield* aMinuteLaterSetActive(member.id, true)
        yield* expectUnauthenticated(token)
        yield* TestClock.adjust("1 minute")
        const fresh = yield* logInAs("alice")
        yield* expectMember(fresh.token, member.id)
      }).pipe(Effect.provide(storeThatForgetsToRevoke), provideRoster())
    )

    it.effect("activating an already active account does not clear the cut-off", () =>
      Effect.gen(function* () {
        const { member, token } = yield* signedInMember("alice", ["team.read"])
        yield* aMinuteLaterSetActive(member.id, false)
        yield* aMinuteLaterSetActive(member.id, true)
        // Activating an already active account must not clear the cut-off either.
        yield* aMinuteLaterSetActive(member.id, true)
        yield* expectUnauthenticated(token)
      }).pipe(Effect.provide(storeThatForgetsToRevoke), provideRoster())
    )

    it.effect(
      "a login that was checking the password while the account was disabled gets no working session",
      () =>
        Effect.gen(function* () {
          const inner = makeScryptPasswordHasher(fastScrypt)
          const entered = yield* Deferred.make<void>()
          const release = yield* Deferred.make<void>()
          const gatedHasher = PasswordHasher.of({
            hash: inner.hash,
            verify: (hash, secret) =>
              Deferred.succeed(entered, undefined).pipe(
                Effect.andThen(Deferred.await(release)),
                Effect.andThen(inner.verify(hash, secret))
              )
          })
          yield* Effect.gen(function* () {
            const { member } = yield* signedInMember("alice", ["team.read"]).pipe(
              Effect.provideService(PasswordHasher, inner)
            )
            const login = yield* Effect.forkChild(Effect.exit(logInAs("alice")))
            yield* Deferred.await(entered)
            yield* TestClock.adjust("1 second")
            yield* setAccountStatus(master, { memberId: member.id, active: false })
            yield* Deferred.succeed(release, undefined)
            const exit = yield* Fiber.join(login)
            if (exit._tag === "Success") yield* expectUnauthenticated(exit.value.token)
          }).pipe(Effect.provideService(PasswordHasher, gatedHasher))
        }).pipe(provideRoster())
    )
  })
})
