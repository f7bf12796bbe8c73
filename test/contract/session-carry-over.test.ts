import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { hashToken } from "../../adapters/crypto/index.ts"
import { MemberId, SessionStore } from "../../core/index.ts"
import { sessionOf, valueOf } from "../support/contract.ts"
import { kitStoreKinds } from "../support/stores.ts"

describe.each(kitStoreKinds)("SessionStore keeping one session on %s", (_, stores) => {
  it.effect("revoking all of a member's sessions but one keeps that one and other members'", () =>
    Effect.gen(function* () {
      const sessions = yield* SessionStore
      for (const token of ["a1", "a2", "a3"]) yield* sessions.create(sessionOf(token, "ada"))
      yield* sessions.create(sessionOf("g1", "grace"))
      yield* sessions.revokeAllOf(MemberId.make("ada"), hashToken("a2"))
      const stored = (token: string) => sessions.find(hashToken(token)).pipe(Effect.map(Option.isSome))
      assert.deepStrictEqual(yield* Effect.forEach(["a1", "a2", "a3", "g1"], stored), [
        false,
        true,
        false,
        true
      ])
      yield* sessions.revokeAllOf(MemberId.make("ada"))
      assert.isFalse(yield* stored("a2"))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("carrying a session over stamps it with the new epoch and nothing else", () =>
    Effect.gen(function* () {
      const sessions = yield* SessionStore
      const session = sessionOf("a1", "ada", 3)
      yield* sessions.create(session)
      yield* sessions.create(sessionOf("a2", "ada", 3))
      yield* sessions.carryOver(session.tokenHash, 4)
      const carried = valueOf(yield* sessions.find(session.tokenHash))
      assert.strictEqual(carried.memberEpoch, 4)
      assert.deepStrictEqual({ ...carried, memberEpoch: 3 }, { ...session })
      assert.strictEqual(valueOf(yield* sessions.find(hashToken("a2"))).memberEpoch, 3)
      yield* sessions.carryOver(hashToken("unknown"), 9)
      assert.isTrue(Option.isNone(yield* sessions.find(hashToken("unknown"))), "creates nothing")
    }).pipe(Effect.provide(stores()))
  )
})
