import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import {
  authenticate,
  endOwnSession,
  listOwnSessions,
  NotFound,
  SessionId,
  SessionLookup,
  TokenIssuer
} from "../../core/index.ts"
import { actorWith, failureOf, logInAs, provideRoster } from "../support/roster.ts"

/** Lets what authenticating forked (the minute of use) run. */
const settle = Effect.forEach([1, 2, 3, 4, 5, 6], () => Effect.yieldNow, { discard: true })

describe("one's own sessions", () => {
  it.effect("note the minute they were last used in, once a minute has begun since", () =>
    Effect.gen(function* () {
      const { principal, token } = yield* actorWith("ada", ["team.read"])
      const [opened] = yield* listOwnSessions(principal)
      const start = opened?.session.lastSeenAt.epochMilliseconds ?? -1
      assert.strictEqual(start % 60_000, 0, "to the minute")
      yield* TestClock.adjust("150 seconds")
      yield* authenticate(Option.some(token))
      yield* settle
      const [seen] = yield* listOwnSessions(principal)
      const minute = DateTime.startOf(yield* DateTime.now, "minute").epochMilliseconds
      assert.strictEqual(seen?.session.lastSeenAt.epochMilliseconds, minute)
      assert.isAbove(minute, start)
    }).pipe(provideRoster())
  )

  it.effect("leave out the ones that expired, and end only one's own", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      yield* TestClock.adjust("11 hours")
      yield* logInAs("ada")
      yield* TestClock.adjust("2 hours")
      const left = yield* listOwnSessions(principal)
      assert.lengthOf(left, 1, "the first expired at 12 hours")
      assert.isFalse(left[0]?.current)
      const missing = failureOf(yield* Effect.exit(endOwnSession(principal, SessionId.make("ses_nope"))))
      assert.instanceOf(missing, NotFound)
    }).pipe(provideRoster())
  )

  it.effect("leave out one the store lists but no longer finds (ended meanwhile)", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      const other = yield* logInAs("ada")
      assert.lengthOf(yield* listOwnSessions(principal), 2)
      const otherHash = (yield* TokenIssuer).hashOf(other.token)
      const left = yield* listOwnSessions(principal).pipe(
        Effect.updateService(SessionLookup, (lookup) => ({
          ...lookup,
          find: (tokenHash) =>
            Effect.flatMap(otherHash, (gone) =>
              tokenHash === gone ? Effect.succeedNone : lookup.find(tokenHash)
            )
        }))
      )
      assert.deepStrictEqual(
        left.map((own) => own.current),
        [true]
      )
    }).pipe(provideRoster())
  )
})
