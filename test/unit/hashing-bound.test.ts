import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Redacted } from "effect"
import {
  defaultHashingBound,
  makeScryptPasswordHasher
} from "../../adapters/crypto/scrypt-password-hasher.ts"
import { noPasswordHash } from "../../core/index.ts"
import { fastScrypt } from "../support/roster.ts"

describe("the bound on concurrent password hashes", () => {
  it.live("runs as many as allowed, queues the next ones, and refuses the rest at once", () =>
    Effect.gen(function* () {
      const hasher = makeScryptPasswordHasher(fastScrypt, { concurrent: 1, queued: 2 })
      const exits = yield* Effect.all(
        Array.from({ length: 5 }, () => Effect.exit(hasher.hash(Redacted.make("a password")))),
        { concurrency: "unbounded" }
      )
      const refused = exits.filter((exit) => Exit.isFailure(exit))
      assert.strictEqual(exits.length - refused.length, 3)
      for (const exit of refused) {
        assert.isTrue(Exit.isFailure(exit) && JSON.stringify(exit.cause).includes("HashingBusy"))
      }
    })
  )

  it.live("frees its places when hashes end, so later requests are served again", () =>
    Effect.gen(function* () {
      const hasher = makeScryptPasswordHasher(fastScrypt, { concurrent: 1, queued: 0 })
      for (let i = 0; i < 3; i++) {
        const hash = yield* hasher.hash(Redacted.make("a password"))
        assert.isTrue(yield* hasher.verify(hash, Redacted.make("a password")))
      }
    })
  )

  it.live("spends a hash on a credential no password matches, as on a wrong password", () =>
    Effect.gen(function* () {
      const hasher = makeScryptPasswordHasher(fastScrypt, { concurrent: 1, queued: 0 })
      const [first, second] = yield* Effect.all(
        [noPasswordHash, noPasswordHash].map((hash) =>
          Effect.exit(hasher.verify(hash, Redacted.make("a password")))
        ),
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(first, Exit.succeed(false), "no password matches it")
      assert.isTrue(
        second !== undefined && Exit.isFailure(second),
        "the second was refused: the first's hash held the one place"
      )
    })
  )

  it("leaves the event loop a core when there are several, and queues a bounded number", () => {
    const bound = defaultHashingBound()
    assert.isAtLeast(bound.concurrent, 1)
    assert.strictEqual(bound.queued, bound.concurrent * 32)
  })
})
