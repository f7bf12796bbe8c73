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

describe.each(storeKinds)("IdempotencyStore on %s", (_, stores) => {
  it.effect("the first claim runs; repeats wait, then replay; another request is a reuse", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      assert.deepStrictEqual(yield* store.start(key, "hash-1", at(0), at(100)), { _tag: "Run" })
      assert.deepStrictEqual(yield* store.start(key, "hash-1", at(1), at(101)), { _tag: "InProgress" })
      assert.deepStrictEqual(yield* store.start(key, "hash-2", at(1), at(101)), { _tag: "Reused" })
      yield* store.finish(key, answer)
      const replay = yield* store.start(key, "hash-1", at(2), at(102))
      assert.strictEqual(replay._tag, "Replay")
      if (replay._tag === "Replay") assertEquals(replay.response, answer)
      assert.deepStrictEqual(yield* store.start(key, "hash-2", at(2), at(102)), { _tag: "Reused" })
    }).pipe(Effect.provide(stores()))
  )

  it.effect("keys are per scope, and an expired or released key runs afresh", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      yield* store.start(key, "hash-1", at(0), at(100))
      yield* store.finish(key, answer)
      assert.deepStrictEqual(yield* store.start({ ...key, scope: "caller-b" }, "hash-9", at(1), at(101)), {
        _tag: "Run"
      })
      assert.deepStrictEqual(yield* store.start(key, "hash-2", at(100), at(200)), { _tag: "Run" }, "expired")
      assert.deepStrictEqual(yield* store.start(key, "hash-2", at(101), at(201)), { _tag: "InProgress" })
      yield* store.release(key)
      assert.deepStrictEqual(yield* store.start(key, "hash-3", at(102), at(202)), { _tag: "Run" }, "released")
    }).pipe(Effect.provide(stores()))
  )

  it.effect(
    "a request cut off before its answer was kept holds its key until it expires, never running twice",
    () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        yield* store.start(key, "hash-1", at(0), at(100))
        for (const second of [1, 50, 99]) {
          assert.deepStrictEqual(yield* store.start(key, "hash-1", at(second), at(second + 100)), {
            _tag: "InProgress"
          })
        }
      }).pipe(Effect.provide(stores()))
  )

  it.effect("of 10 parallel claims of one key, exactly one runs", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      const starts = yield* inParallel(10, () => store.start(key, "hash-1", at(0), at(100)))
      assert.strictEqual(starts.filter((start) => start._tag === "Run").length, 1)
      assert.strictEqual(starts.filter((start) => start._tag === "InProgress").length, 9)
    }).pipe(Effect.provide(stores()))
  )
})
