import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { MemberId, Session, SessionId, SessionStore } from "../../core/index.ts"
import { assertEquals, at, inParallel, otherOrganization, sessionOf, valueOf } from "../support/contract.ts"
import { kitStoreKinds } from "../support/stores.ts"

const ada = MemberId.make("member-ada")
const bob = MemberId.make("member-bob")

describe.each(kitStoreKinds)("SessionStore, a person's own sessions, on %s", (_, stores) => {
  it.effect(
    "lists an account's sessions in every organisation, oldest first, with where they came from",
    () =>
      Effect.gen(function* () {
        const sessions = yield* SessionStore
        const laptop = new Session({
          ...sessionOf("laptop", ada),
          createdAt: at(10),
          lastSeenAt: at(60),
          userAgent: "Firefox",
          address: "198.51.100.7"
        })
        const elsewhere = new Session({
          ...sessionOf("elsewhere", ada, 0, otherOrganization),
          createdAt: at(5)
        })
        yield* sessions.create(laptop)
        yield* sessions.create(elsewhere)
        yield* sessions.create(sessionOf("bobs", bob))
        const listed = yield* sessions.listOf(ada)
        assertEquals(listed, [elsewhere, laptop])
        assert.deepStrictEqual(yield* sessions.listOf(MemberId.make("nobody")), [])
      }).pipe(Effect.provide(stores()))
  )

  it.effect("ends a session by its id, for its own account only, once", () =>
    Effect.gen(function* () {
      const sessions = yield* SessionStore
      const mine = sessionOf("mine", ada)
      const bobs = sessionOf("bobs", bob)
      yield* sessions.create(mine)
      yield* sessions.create(bobs)
      assert.isTrue(Option.isNone(yield* sessions.revokeById(ada, bobs.id)), "another account's")
      assert.isTrue(Option.isSome(yield* sessions.find(bobs.tokenHash)))
      const ends = yield* inParallel(4, () => sessions.revokeById(ada, mine.id))
      assert.lengthOf(ends.filter(Option.isSome), 1)
      assertEquals(valueOf(ends.find(Option.isSome) ?? Option.none()), mine)
      assert.isTrue(Option.isNone(yield* sessions.find(mine.tokenHash)))
      assert.isTrue(Option.isNone(yield* sessions.revokeById(ada, SessionId.make("ses_unknown"))))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("notes the minute a session was seen in, moving it forward only", () =>
    Effect.gen(function* () {
      const sessions = yield* SessionStore
      const session = sessionOf("seen", ada)
      yield* sessions.create(session)
      yield* sessions.noteSeen(session.tokenHash, at(120))
      assert.strictEqual(
        valueOf(yield* sessions.find(session.tokenHash)).lastSeenAt.epochMilliseconds,
        120_000
      )
      yield* sessions.noteSeen(session.tokenHash, at(60))
      const seen = valueOf(yield* sessions.find(session.tokenHash))
      assert.strictEqual(seen.lastSeenAt.epochMilliseconds, 120_000)
      assertEquals(seen, new Session({ ...session, lastSeenAt: at(120) }))
    }).pipe(Effect.provide(stores()))
  )
  it.effect("marks an organisation's sessions as waiting for a second factor, but those it excepts", () =>
    Effect.gen(function* () {
      const sessions = yield* SessionStore
      const adas = sessionOf("ada-here", ada)
      const bobs = sessionOf("bob-here", bob)
      const adaElsewhere = sessionOf("ada-elsewhere", ada, 0, otherOrganization)
      for (const session of [adas, bobs, adaElsewhere]) yield* sessions.create(session)
      const pending = (session: Session) =>
        Effect.map(sessions.find(session.tokenHash), (found) => valueOf(found).mfaPending)
      yield* sessions.setMfaPending(adas.organizationId, true, { except: [bob] })
      assert.deepStrictEqual(
        [yield* pending(adas), yield* pending(bobs), yield* pending(adaElsewhere)],
        [true, false, false]
      )
      yield* sessions.setMfaPending(otherOrganization, true, { only: ada })
      assert.isTrue(yield* pending(adaElsewhere))
      yield* sessions.clearMfaPending(ada)
      assert.deepStrictEqual([yield* pending(adas), yield* pending(adaElsewhere)], [false, false])
      yield* sessions.setMfaPending(adas.organizationId, true, { only: bob })
      assert.deepStrictEqual([yield* pending(adas), yield* pending(bobs)], [false, true])
      yield* sessions.setMfaPending(adas.organizationId, false, {})
      assert.isFalse(yield* pending(bobs))
    }).pipe(Effect.provide(stores()))
  )
})
