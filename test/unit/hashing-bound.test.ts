import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Redacted } from "effect"
import {
  defaultHashingBound,
  makeScryptPasswordHasher
} from "../../adapters/crypto/scrypt-password-hasher.ts"
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

  it("leaves the event loop a core when there are several, and queues a bounded number", () => {
    const bound = defaultHashingBound()
    assert.isAtLeast(bound.concurrent, 1)
    assert.strictEqual(bound.queued, bound.concurrent * 32)
  })
})
