import { assert, describe, it } from "@effect/vitest"
import { Effect, Logger } from "effect"
import { jsonLines } from "../../adapters/http/edge/request-log.ts"
import { jsonLine, jsonLineLogger, lineTime } from "../../adapters/log/json-line.ts"

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

  it("of a request name it, its answer and its time, and the failure of a 500 only", () => {
    const lines: Array<string> = []
    const log = jsonLines((line) => lines.push(line))
    const entry = { requestId: "r1", method: "GET", path: '/a"b', durationMs: 1.25 }
    log({ ...entry, status: 200 })
    log({ ...entry, status: 500, error: "Error: boom" })
    const [answered, failed] = lines.map((line) => JSON.parse(line))
    assert.deepStrictEqual(Object.keys(answered), [
      "time",
      "level",
      "msg",
      "requestId",
      "method",
      "path",
      "status",
      "durationMs"
    ])
    assert.deepInclude(answered, {
      level: "info",
      msg: "request",
      path: '/a"b',
      status: 200,
      durationMs: 1.25
    })
    assert.deepInclude(failed, { level: "error", status: 500, error: "Error: boom" })
    assert.isTrue(Math.abs(Date.parse(answered.time) - Date.now()) < 5_000)
  })

  it("carry the current time, to the millisecond", async () => {
    const before = Date.now()
    const first = lineTime()
    assert.isAtLeast(Date.parse(first), before)
    await new Promise((resolve) => setTimeout(resolve, 5))
    assert.isAbove(Date.parse(lineTime()), Date.parse(first))
  })
})
