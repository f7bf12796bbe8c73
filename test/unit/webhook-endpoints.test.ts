import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Layer, Option } from "effect"
import {
  AuditLog,
  createWebhook,
  DestinationRefused,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
  WebhookSender,
  WebhookStore
} from "../../core/index.ts"
import { failureOf, master, provideRoster } from "../support/roster.ts"

/** A sender that refuses every URL but `https://ok.example/…`, counting what it was asked. */
const checking = () => {
  const checked: Array<string> = []
  const layer = Layer.succeed(
    WebhookSender,
    WebhookSender.of({
      checkDestination: (url) => {
        checked.push(url)
        return url.startsWith("https://ok.example/")
          ? Effect.void
          : Effect.fail(new DestinationRefused({ reason: "private_address" }))
      },
      send: () => Effect.succeed({ statusCode: 204 })
    })
  )
  return { checked, layer }
}

const withChecks =
  (sender: ReturnType<typeof checking>) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    effect.pipe(Effect.provide(sender.layer), provideRoster())

describe("webhook endpoints", () => {
  it.effect("are checked where they point when made and when their URL changes, and only then", () => {
    const sender = checking()
    return Effect.gen(function* () {
      const refused = failureOf(
        yield* Effect.exit(createWebhook(master, { url: "https://inside.example/", events: ["*"] }))
      )
      assert.instanceOf(refused, DestinationRefused)
      assert.deepStrictEqual(
        yield* WebhookStore.use((store) => store.page(undefined, 10)),
        [],
        "nothing was made"
      )
      const { webhook } = yield* createWebhook(master, { url: "https://ok.example/a", events: ["*"] })
      assert.isNull(webhook.description)
      yield* updateWebhook(master, webhook.id, { url: "https://ok.example/a", description: "Same place" })
      assert.deepStrictEqual(
        sender.checked,
        ["https://inside.example/", "https://ok.example/a"],
        "an unchanged URL is not checked again"
      )
      const moved = failureOf(
        yield* Effect.exit(updateWebhook(master, webhook.id, { url: "https://inside.example/b" }))
      )
      assert.instanceOf(moved, DestinationRefused)
      const stored = Option.getOrThrow(yield* WebhookStore.use((store) => store.find(webhook.id)))
      assert.strictEqual(stored.url, "https://ok.example/a")
      assert.strictEqual(stored.description, "Same place")
      const unchanged = yield* updateWebhook(master, webhook.id, { events: ["*"] })
      assert.strictEqual(unchanged.description, "Same place")
      const updates = yield* AuditLog.use((log) => log.page({ action: "webhook.updated" }, 10))
      assert.deepStrictEqual(
        updates.map((entry) => entry.changes),
        [{ description: [null, "Same place"] }],
        "a change that changes nothing writes nothing"
      )
    }).pipe(withChecks(sender))
  })

  it.effect("keep a rotated secret signing for exactly 24 hours, and page oldest first", () => {
    const sender = checking()
    return Effect.gen(function* () {
      const made = []
      for (const n of [1, 2, 3])
        made.push(yield* createWebhook(master, { url: `https://ok.example/${n}`, events: ["*"] }))
      const [first] = made
      if (first === undefined) return assert.fail("made")
      yield* rotateWebhookSecret(master, first.webhook.id)
      const stored = Option.getOrThrow(yield* WebhookStore.use((store) => store.find(first.webhook.id)))
      const until = stored.previous?.until
      assert.isTrue(
        until !== undefined &&
          DateTime.Equivalence(until, DateTime.addDuration(yield* DateTime.now, Duration.hours(24)))
      )
      const page = yield* listWebhooks(master, { limit: 2 })
      assert.deepStrictEqual(
        page.items.map((webhook) => webhook.url),
        ["https://ok.example/1", "https://ok.example/2"]
      )
      assert.isTrue(Option.isSome(page.next))
      const rest = yield* listWebhooks(master, { limit: 2, after: Option.getOrThrow(page.next) })
      assert.deepStrictEqual(
        rest.items.map((webhook) => webhook.url),
        ["https://ok.example/3"]
      )
      assert.isTrue(Option.isNone(rest.next))
    }).pipe(withChecks(sender))
  })
})
