import { assert, describe, it } from "@effect/vitest"
import { Effect, Logger } from "effect"
import { jsonLine, jsonLineLogger } from "../../adapters/log/json-line.ts"

describe("log lines", () => {
  it("have one shape: time, level, message, then the fields", () => {
    const line = JSON.parse(jsonLine("warn", "careful", { requestId: "r1" }))
    assert.deepStrictEqual(Object.keys(line), ["time", "level", "msg", "requestId"])
    assert.strictEqual(line.level, "warn")
    assert.strictEqual(line.msg, "careful")
    assert.isFalse(Number.isNaN(Date.parse(line.time)))
  })

  it.effect("are what Effect's own logging writes too, at its level", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const logged = Logger.layer([jsonLineLogger((line) => lines.push(line))])
      yield* Effect.logWarning("no TTL indexes").pipe(Effect.provide(logged))
      yield* Effect.logError("broken", "twice").pipe(Effect.provide(logged))
      const [warning, error] = lines.map((line) => JSON.parse(line))
      assert.deepInclude(warning, { level: "warn", msg: "no TTL indexes" })
      assert.deepInclude(error, { level: "error", msg: "broken twice" })
      assert.strictEqual(lines.length, 2)
    })
  )
})
