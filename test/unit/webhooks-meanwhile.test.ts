import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import {
  AuditLog,
  createWebhook,
  DeliveryId,
  defaultOrganizationId,
  deleteWebhook,
  listDeliveries,
  type NotFound,
  retryDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
  type WebhookId,
  WebhookSender,
  WebhookStore
} from "../../core/index.ts"
import { failureOf, master, provideRoster } from "../support/roster.ts"

/** A sender that takes every destination and every message. */
const accepting = Layer.succeed(
  WebhookSender,
  WebhookSender.of({ checkDestination: () => Effect.void, send: () => Effect.succeed({ statusCode: 204 }) })
)
const provide = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(Effect.provide(accepting), provideRoster())

const endpoint = Effect.map(
  createWebhook(master, { url: "https://ok.example/hook", events: ["*"] }),
  (made) => made.webhook.id
)

/** The store as another request sees it: each endpoint is deleted right after this use case reads it. */
const withEndpointsRemovedAfterRead = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const webhooks = yield* WebhookStore
    return yield* Effect.provideService(self, WebhookStore, {
      ...webhooks,
      find: (id) => webhooks.find(id).pipe(Effect.tap(() => webhooks.removeAllOf(defaultOrganizationId)))
    })
  })

const notFound = (error: unknown) => [(error as NotFound).entity, (error as NotFound).id]

/** Asserts that `change` of a new endpoint, deleted right after the change read it, is NotFound. */
const refusedOnceRemoved = <A, E, R>(change: (id: WebhookId) => Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const id = yield* endpoint
    const refused = failureOf(yield* Effect.exit(withEndpointsRemovedAfterRead(change(id))))
    assert.deepStrictEqual(notFound(refused), ["webhook", id])
  })

describe("an endpoint deleted meanwhile", () => {
  it.effect("is NotFound to a change, a rotation and a deletion", () =>
    Effect.gen(function* () {
      yield* refusedOnceRemoved((id) => updateWebhook(master, id, { description: "late" }))
      yield* refusedOnceRemoved((id) => rotateWebhookSecret(master, id))
      yield* refusedOnceRemoved((id) => deleteWebhook(master, id))
    }).pipe(provide)
  )
})

describe("an endpoint's deletion", () => {
  it.effect("records the address it no longer sends to", () =>
    Effect.gen(function* () {
      const id = yield* endpoint
      yield* deleteWebhook(master, id)
      const [entry] = yield* AuditLog.use((log) => log.page({ action: "webhook.deleted" }, 10))
      assert.deepStrictEqual(entry?.changes, { url: ["https://ok.example/hook", null] })
      assert.deepStrictEqual(entry?.target, { type: "webhook", id })
    }).pipe(provide)
  )
})

describe("an endpoint's deliveries", () => {
  it.effect("are listed a page at a time, newest first; an unknown one is not retried", () =>
    Effect.gen(function* () {
      const id = yield* endpoint
      for (let i = 0; i < 3; i++) {
        yield* sendTestEvent(master, id)
        yield* TestClock.adjust("1 second")
      }
      const first = yield* listDeliveries(master, id, { limit: 2 })
      assert.lengthOf(first.items, 2)
      const last = first.items[1]
      assert.deepStrictEqual(
        Option.getOrUndefined(first.next),
        last === undefined ? undefined : { createdAt: last.createdAt, id: last.id }
      )
      const after = Option.getOrUndefined(first.next)
      const rest = yield* listDeliveries(master, id, after === undefined ? { limit: 2 } : { limit: 2, after })
      assert.lengthOf(rest.items, 1)
      assert.isTrue(Option.isNone(rest.next))
      assert.notInclude(
        first.items.map((delivery) => delivery.id),
        rest.items[0]?.id
      )
      const unknown = failureOf(yield* Effect.exit(retryDelivery(master, id, DeliveryId.make("nope"))))
      assert.deepStrictEqual(notFound(unknown), ["delivery", "nope"])
    }).pipe(provide)
  )
})
