import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { IdempotencyStore, StoredResponse } from "../../core/index.ts"
import { assertEquals, at, inParallel } from "../support/contract.ts"
import { storeKinds } from "../support/stores.ts"

const key = { scope: "caller-a", key: "key-1" }
const answer = new StoredResponse({
  status: 200,
  headers: [{ name: "content-type", value: "application/json" }],
  body: '{"id":1}'
})

/** A claim made at `second` by the request with `requestHash`: kept 100 s, held alone 10 s. */
const claim = (requestHash: string, second: number) => ({
  requestHash,
  requestKey: `${requestHash}@${second}`,
  now: at(second),
  expiresAt: at(second + 100),
  leaseUntil: at(second + 10)
})

describe.each(storeKinds)("IdempotencyStore on %s", (_, stores) => {
  it.effect("the first claim runs; repeats wait, then replay; another request is a reuse", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      assert.deepStrictEqual(yield* store.start(key, claim("hash-1", 0)), { _tag: "Run" })
      assert.deepStrictEqual(yield* store.start(key, claim("hash-1", 1)), { _tag: "InProgress" })
      assert.deepStrictEqual(yield* store.start(key, claim("hash-2", 1)), { _tag: "Reused" })
      yield* store.finish(key, answer)
      const replay = yield* store.start(key, claim("hash-1", 50))
      assert.strictEqual(replay._tag, "Replay")
      if (replay._tag === "Replay") assertEquals(replay.response, answer)
      assert.deepStrictEqual(yield* store.start(key, claim("hash-2", 50)), { _tag: "Reused" })
    }).pipe(Effect.provide(stores()))
  )

  it.effect("keys are per scope, and an expired or released key runs afresh", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      yield* store.start(key, claim("hash-1", 0))
      yield* store.finish(key, answer)
      assert.deepStrictEqual(yield* store.start({ ...key, scope: "caller-b" }, claim("hash-9", 1)), {
        _tag: "Run"
      })
      assert.deepStrictEqual(yield* store.start(key, claim("hash-2", 100)), { _tag: "Run" }, "expired")
      assert.deepStrictEqual(yield* store.start(key, claim("hash-2", 101)), { _tag: "InProgress" })
      yield* store.release(key, claim("hash-2", 101).leaseUntil)
      assert.deepStrictEqual(
        yield* store.start(key, claim("hash-2", 101)),
        { _tag: "InProgress" },
        "not its lease"
      )
      yield* store.release(key, claim("hash-2", 100).leaseUntil)
      assert.deepStrictEqual(yield* store.start(key, claim("hash-3", 102)), { _tag: "Run" }, "released")
    }).pipe(Effect.provide(stores()))
  )

  it.effect("a request that never answered holds its key for its lease; then one repeat resumes it", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      yield* store.start(key, claim("hash-1", 0))
      for (const second of [1, 5, 9]) {
        assert.deepStrictEqual(yield* store.start(key, claim("hash-1", second)), { _tag: "InProgress" })
      }
      assert.deepStrictEqual(yield* store.start(key, claim("hash-2", 11)), { _tag: "Reused" })
      const repeats = yield* inParallel(5, () => store.start(key, claim("hash-1", 11)))
      assert.deepStrictEqual(
        repeats.map((start) => (start._tag === "Resume" ? start.requestKey : start._tag)).sort(),
        ["InProgress", "InProgress", "InProgress", "InProgress", "hash-1@0"],
        "the first claim's changes are looked for"
      )
      assert.deepStrictEqual(
        yield* store.start(key, claim("hash-1", 12)),
        { _tag: "InProgress" },
        "leased anew"
      )
      yield* store.finish(key, answer)
      assert.strictEqual(
        (yield* store.start(key, claim("hash-1", 30)))._tag,
        "Replay",
        "answered: never resumed"
      )
    }).pipe(Effect.provide(stores()))
  )

  it.effect("an abandoned claim is resumed at once, by its holder only; an answered one stays answered", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      yield* store.start(key, claim("hash-1", 0))
      yield* store.abandon(key, claim("hash-1", 0).leaseUntil)
      assert.deepStrictEqual(yield* store.start(key, claim("hash-1", 1)), {
        _tag: "Resume",
        requestKey: "hash-1@0"
      })
      // A late call of the first holder leaves the one that resumed holding the key.
      yield* store.abandon(key, claim("hash-1", 0).leaseUntil)
      yield* store.release(key, claim("hash-1", 0).leaseUntil)
      assert.deepStrictEqual(yield* store.start(key, claim("hash-1", 2)), { _tag: "InProgress" })
      yield* store.finish(key, answer)
      yield* store.abandon(key, claim("hash-1", 1).leaseUntil)
      assert.strictEqual((yield* store.start(key, claim("hash-1", 3)))._tag, "Replay")
    }).pipe(Effect.provide(stores()))
  )

  it.effect("of 10 parallel claims of one key, exactly one runs", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      const starts = yield* inParallel(10, () => store.start(key, claim("hash-1", 0)))
      assert.strictEqual(starts.filter((start) => start._tag === "Run").length, 1)
      assert.strictEqual(starts.filter((start) => start._tag === "InProgress").length, 9)
    }).pipe(Effect.provide(stores()))
  )
})
