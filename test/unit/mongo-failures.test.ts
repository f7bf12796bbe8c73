import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { MongoNetworkError, MongoNotConnectedError, MongoServerError, MongoWriteConcernError } from "mongodb"
import { attemptWrite } from "../../adapters/mongodb/driver.ts"
import { type StoreWriteLedger, StoreWrites } from "../../core/index.ts"

/** Runs one write that fails with `error` (or succeeds), and answers its ledger and exit. */
const write = async (outcome: () => Promise<unknown>) => {
  const ledger: StoreWriteLedger = { applied: false, uncertain: false }
  const exit = await Effect.runPromiseExit(Effect.provideService(attemptWrite(outcome), StoreWrites, ledger))
  return { ledger, exit }
}

describe("a MongoDB write's failure, as the ledger keeps it", () => {
  it("a write that succeeded took effect", async () => {
    const { ledger, exit } = await write(() => Promise.resolve(1))
    assert.isTrue(Exit.isSuccess(exit))
    assert.deepStrictEqual(ledger, { applied: true, uncertain: false })
  })

  it("may have taken effect when the connection broke after it was sent, or the majority did not confirm it", async () => {
    for (const error of [
      new MongoNetworkError("connection 4 to db:27017 closed"),
      new MongoWriteConcernError({
        ok: 1,
        writeConcernError: { code: 64, errmsg: "waiting for replication timed out", errInfo: {} }
      } as never)
    ]) {
      const { ledger, exit } = await write(() => Promise.reject(error))
      assert.isTrue(Exit.isFailure(exit))
      assert.deepStrictEqual(ledger, { applied: false, uncertain: true }, error.name)
    }
  })

  it("may have taken effect when the runtime's socket broke under the driver (Bun raises it unwrapped)", async () => {
    const reset = Object.assign(new Error("write ECONNRESET"), { code: "ECONNRESET" })
    const { ledger, exit } = await write(() => Promise.reject(reset))
    assert.isTrue(Exit.isFailure(exit) && Exit.hasFails(exit), "a failure (unavailable), not a defect")
    assert.deepStrictEqual(ledger, { applied: false, uncertain: true })
    const bug = await write(() => Promise.reject(new TypeError("x is not a function")))
    assert.isTrue(Exit.isFailure(bug.exit) && Exit.hasDies(bug.exit), "anything else stays a defect")
  })

  it("cannot have taken effect when it never left, or the server refused it", async () => {
    for (const error of [
      new MongoNotConnectedError("not connected"),
      new MongoNetworkError("connect ECONNREFUSED", { beforeHandshake: true }),
      new MongoServerError({ code: 11600, errmsg: "interrupted at shutdown" })
    ]) {
      const { ledger } = await write(() => Promise.reject(error))
      assert.deepStrictEqual(ledger, { applied: false, uncertain: false }, error.name)
    }
  })

  it("a write refused by a unique index changed nothing either", async () => {
    const { ledger, exit } = await write(() =>
      Promise.reject(new MongoServerError({ code: 11000, errmsg: "E11000 duplicate key" }))
    )
    assert.isTrue(Exit.isFailure(exit))
    assert.deepStrictEqual(ledger, { applied: false, uncertain: false })
  })
})
