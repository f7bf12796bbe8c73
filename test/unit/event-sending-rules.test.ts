import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  AuditLog,
  addRole,
  createWebhook,
  EventSource,
  fanOutEvents,
  getWebhook,
  WebhookStore
} from "../../core/index.ts"
import { master } from "../support/roster.ts"
import { recordingSender, roundsUntilIdle, withSender } from "../support/webhook-sending.ts"

const endpoint = (events: ReadonlyArray<string> = ["role.created"]) =>
  Effect.map(
    createWebhook(master, { url: "https://hooks.example.com/roster", events: events as ["role.created"] }),
    (made) => made.webhook.id
  )

describe("fanning out", () => {
  it.effect("marks every entry it took as sent, and with nothing unsent does nothing", () => {
    const sender = recordingSender()
    return Effect.gen(function* () {
      yield* endpoint()
      yield* addRole(master, { name: "One", roleKey: "one" })
      yield* addRole(master, { name: "Two", roleKey: "two" })
      assert.strictEqual(yield* fanOutEvents(10), 2)
      assert.lengthOf(yield* EventSource.use((source) => source.unsent(10)), 0)
      assert.strictEqual(yield* fanOutEvents(10), 0)
    }).pipe(withSender(sender))
  })
})

describe("an endpoint's health", () => {
  it.effect("is failing from its first failure until its next success", () => {
    const sender = recordingSender()
    return Effect.gen(function* () {
      const id = yield* endpoint()
      sender.answers.push({ statusCode: 500 })
      yield* addRole(master, { name: "One", roleKey: "one" })
      yield* roundsUntilIdle
      const failingSince = () =>
        Effect.map(
          WebhookStore.use((store) => store.find(id)),
          (found) => Option.getOrThrow(found).failingSince
        )
      assert.isNotNull(yield* failingSince())
      yield* addRole(master, { name: "Two", roleKey: "two" })
      yield* roundsUntilIdle
      assert.isNull(yield* failingSince())
      assert.isTrue((yield* getWebhook(master, id)).enabled)
    }).pipe(withSender(sender))
  })

  it.effect("that is gone is disabled, recorded as no longer enabled", () => {
    const sender = recordingSender()
    return Effect.gen(function* () {
      const id = yield* endpoint()
      sender.answers.push({ statusCode: 410 })
      yield* addRole(master, { name: "One", roleKey: "one" })
      yield* roundsUntilIdle
      const [entry] = yield* AuditLog.use((log) => log.page({ action: "webhook.disabled" }, 10))
      assert.deepStrictEqual(entry?.changes, { enabled: [true, false], reason: [null, "gone"] })
      assert.deepStrictEqual(entry?.target, { type: "webhook", id })
    }).pipe(withSender(sender))
  })
})
