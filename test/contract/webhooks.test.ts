import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Exit, Option } from "effect"
import {
  AuditEntry,
  AuditEntryId,
  AuditLog,
  CurrentOrganization,
  DeliveryId,
  DeliveryRecord,
  DeliveryStore,
  defaultOrganizationId,
  EventId,
  EventSource,
  maxWebhooks,
  OrganizationId,
  SealedSecret,
  WebhookId,
  WebhookRecord,
  WebhookStore
} from "../../core/index.ts"
import { at, inParallel, valueOf } from "../support/contract.ts"
import { kitStoreKinds, storeKinds } from "../support/stores.ts"

const other = OrganizationId.make("org-other")
const inOther = Effect.provideService(CurrentOrganization, other)

const webhook = (n: number, organizationId = defaultOrganizationId, createdAt = at(n)) =>
  new WebhookRecord({
    id: WebhookId.make(`whk-${organizationId}-${n}`),
    url: `https://example.com/hooks/${n}`,
    events: n % 2 === 0 ? ["*"] : ["member.removed"],
    enabled: true,
    description: null,
    createdAt,
    organizationId,
    secret: SealedSecret.make(`sealed-${n}`),
    previous: null,
    failingSince: null
  })

let entries = 0
const entry = (action: AuditEntry["action"], id: string, organizationId = defaultOrganizationId) =>
  new AuditEntry({
    id: AuditEntryId.make(`aud-whk-${++entries}`),
    at: at(entries),
    action,
    actor: { kind: "master" },
    target: { type: "webhook", id },
    changes: {},
    organizationId
  })

const delivery = (n: number, of: WebhookRecord, due = at(10)) =>
  new DeliveryRecord({
    id: DeliveryId.make(`dlv-${of.id}-${n}`),
    eventId: EventId.make(`evt-${n}`),
    type: "member.removed",
    attempts: 0,
    status: "pending",
    nextAttemptAt: due,
    createdAt: at(n),
    updatedAt: at(n),
    webhookId: of.id,
    organizationId: of.organizationId,
    body: `{"n":${n}}`
  })

describe.each(kitStoreKinds)("WebhookStore on %s", (_, stores) => {
  it.effect("pages an organisation's endpoints, finds only its own, and refuses one past the limit", () =>
    Effect.gen(function* () {
      const store = yield* WebhookStore
      for (const n of [3, 1, 2]) yield* store.insert(webhook(n), entry("webhook.created", `whk-${n}`))
      yield* inOther(store.insert(webhook(4, other), entry("webhook.created", "whk-4", other)))
      assert.deepStrictEqual(
        (yield* store.page(undefined, 10)).map((found) => found.url),
        [1, 2, 3].map((n) => `https://example.com/hooks/${n}`)
      )
      const rest = yield* store.page({ createdAt: at(1), id: webhook(1).id }, 10)
      assert.deepStrictEqual(
        rest.map((found) => found.id),
        [webhook(2).id, webhook(3).id]
      )
      assert.isTrue(Option.isNone(yield* store.find(webhook(4, other).id)), "not another organisation's")
      assert.strictEqual(valueOf(yield* store.find(webhook(2).id)).secret, "sealed-2")
      yield* inParallel(maxWebhooks, (i) =>
        Effect.exit(store.insert(webhook(10 + i), entry("webhook.created", `whk-${10 + i}`)))
      )
      assert.strictEqual((yield* store.page(undefined, 100)).length, maxWebhooks, "never past the limit")
      const refused = yield* Effect.exit(store.insert(webhook(99), entry("webhook.created", "whk-99")))
      assert.isTrue(Exit.isFailure(refused))
      assert.strictEqual(
        (yield* inOther(store.page(undefined, 100))).length,
        1,
        "the limit is per organisation"
      )
    }).pipe(Effect.provide(stores()))
  )

  it.effect("changes, rotates, disables and removes an endpoint of its own organisation only", () =>
    Effect.gen(function* () {
      const store = yield* WebhookStore
      const record = webhook(1)
      yield* store.insert(record, entry("webhook.created", record.id))
      assert.isTrue(
        Option.isNone(
          yield* inOther(
            store.update(record.id, { url: "https://x.example" }, entry("webhook.updated", record.id, other))
          )
        )
      )
      const changed = valueOf(
        yield* store.update(
          record.id,
          { events: ["*"], description: "Sync" },
          entry("webhook.updated", record.id)
        )
      )
      assert.deepStrictEqual(changed.events, ["*"])
      assert.strictEqual(changed.description, "Sync")
      assert.strictEqual(changed.url, record.url, "what a change leaves out stays")
      yield* store.rotate(
        record.id,
        SealedSecret.make("sealed-new"),
        { secret: record.secret, until: at(500) },
        entry("webhook.secret_rotated", record.id)
      )
      const rotated = valueOf(yield* store.find(record.id))
      assert.strictEqual(rotated.secret, "sealed-new")
      assert.strictEqual(rotated.previous?.secret, "sealed-1")
      assert.isTrue(rotated.previous !== null && DateTime.Equivalence(rotated.previous.until, at(500)))

      const since = yield* store.noteFailing(record.id, at(100))
      assert.isTrue(DateTime.Equivalence(since, at(100)))
      const still = yield* store.noteFailing(record.id, at(200))
      assert.isTrue(DateTime.Equivalence(still, at(100)), "failing since the first failure")
      yield* store.noteSuccess(record.id)
      assert.isNull(valueOf(yield* store.find(record.id)).failingSince, "a success forgets the failures")
      yield* store.noteFailing(record.id, at(300))

      assert.isTrue(yield* store.disable(record.id, entry("webhook.disabled", record.id)))
      assert.isFalse(yield* store.disable(record.id, entry("webhook.disabled", record.id)), "disabled once")
      assert.deepStrictEqual(yield* store.enabledOf(defaultOrganizationId), [])
      const enabled = valueOf(
        yield* store.update(record.id, { enabled: true }, entry("webhook.updated", record.id))
      )
      assert.isTrue(enabled.enabled)
      assert.isNull(valueOf(yield* store.find(record.id)).failingSince, "enabling again forgets the failures")
      assert.deepStrictEqual(
        (yield* store.enabledOf(defaultOrganizationId)).map((found) => found.id),
        [record.id]
      )
      assert.isTrue(
        Option.isNone(yield* inOther(store.remove(record.id, entry("webhook.deleted", record.id, other))))
      )
      assert.strictEqual(
        valueOf(yield* store.remove(record.id, entry("webhook.deleted", record.id))).id,
        record.id
      )
      assert.isTrue(Option.isNone(yield* store.find(record.id)))
      assert.isTrue(
        Option.isNone(yield* store.remove(record.id, entry("webhook.deleted", record.id))),
        "removed once"
      )
    }).pipe(Effect.provide(stores()))
  )
})

describe.each(kitStoreKinds)("DeliveryStore on %s", (_, stores) => {
  it.effect(
    "keeps one delivery of an event to an endpoint, pages them newest first, and finds only its own",
    () =>
      Effect.gen(function* () {
        const webhooks = yield* WebhookStore
        const store = yield* DeliveryStore
        const mine = webhook(1)
        const theirs = webhook(2, other)
        yield* webhooks.insert(mine, entry("webhook.created", mine.id))
        yield* inOther(webhooks.insert(theirs, entry("webhook.created", theirs.id, other)))
        yield* store.enqueue([delivery(1, mine), delivery(2, mine), delivery(3, mine), delivery(1, theirs)])
        yield* store.enqueue([new DeliveryRecord({ ...delivery(1, mine), id: DeliveryId.make("dlv-again") })])
        const page = yield* store.page(mine.id, undefined, undefined, 10)
        assert.deepStrictEqual(
          page.map((found) => found.id),
          [3, 2, 1].map((n) => delivery(n, mine).id),
          "an event enqueued twice is one delivery"
        )
        const next = yield* store.page(mine.id, undefined, { createdAt: at(3), id: delivery(3, mine).id }, 1)
        assert.deepStrictEqual(
          next.map((found) => found.id),
          [delivery(2, mine).id]
        )
        assert.isTrue(
          Option.isNone(yield* store.find(theirs.id, delivery(1, theirs).id)),
          "not another organisation's"
        )
        assert.isTrue(Option.isNone(yield* store.find(mine.id, delivery(1, theirs).id)))
        assert.deepStrictEqual(yield* store.page(mine.id, "succeeded", undefined, 10), [])
        assert.strictEqual((yield* store.page(mine.id, "pending", undefined, 10)).length, 3)
      }).pipe(Effect.provide(stores()))
  )

  it.effect("claims a due delivery once until its lease ends, and settles it only under its claim", () =>
    Effect.gen(function* () {
      const webhooks = yield* WebhookStore
      const store = yield* DeliveryStore
      const on = webhook(1)
      const off = webhook(3)
      yield* webhooks.insert(on, entry("webhook.created", on.id))
      yield* webhooks.insert(off, entry("webhook.created", off.id))
      yield* webhooks.disable(off.id, entry("webhook.disabled", off.id))
      yield* store.enqueue([delivery(1, on), delivery(2, on, at(50)), delivery(3, off)])
      const claims = yield* inParallel(3, () => store.claimDue(at(20), at(80), 10))
      const claimed = claims.flat()
      assert.deepStrictEqual(
        claimed.map(({ delivery: found }) => found.id),
        [delivery(1, on).id],
        "one caller claims the one due delivery to an enabled endpoint"
      )
      const [first] = claimed
      if (first === undefined) return assert.fail("claimed")
      assert.strictEqual(first.webhook.url, on.url, "with its endpoint")
      assert.deepStrictEqual(
        yield* store.claimDue(at(60), at(90), 10).pipe(Effect.map((c) => c.map((x) => x.delivery.id))),
        [delivery(2, on).id],
        "the claimed one waits for its lease"
      )
      const again = yield* store.claimDue(at(81), at(200), 10)
      assert.deepStrictEqual(
        again.map(({ delivery: found }) => found.id),
        [delivery(1, on).id],
        "a claim whose lease ran out passes to another"
      )
      const outcome = { status: "failed" as const, attempts: 1, lastStatusCode: 500, nextAttemptAt: at(300) }
      assert.isFalse(
        yield* store.settle(first.delivery.id, first.claim, outcome, at(82)),
        "the old claim is void"
      )
      assert.isTrue(yield* store.settle(first.delivery.id, again[0]?.claim ?? "", outcome, at(82)))
      const failed = valueOf(yield* store.find(on.id, first.delivery.id))
      assert.strictEqual(failed.status, "failed")
      assert.strictEqual(failed.lastStatusCode, 500)
      assert.isTrue(failed.nextAttemptAt !== undefined && DateTime.Equivalence(failed.nextAttemptAt, at(300)))
      assert.deepStrictEqual(
        yield* store.claimDue(at(250), at(400), 10).pipe(Effect.map((c) => c.map((x) => x.delivery.id))),
        [delivery(2, on).id],
        "a failed delivery waits for its next try; an unsettled one is claimed again"
      )
      const retried = valueOf(yield* store.retry(on.id, first.delivery.id, at(260)))
      assert.strictEqual(retried.status, "pending")
      const [due] = yield* store.claimDue(at(260), at(400), 10)
      if (due === undefined) return assert.fail("a retried delivery is due at once")
      yield* store.settle(
        due.delivery.id,
        due.claim,
        { status: "succeeded", attempts: 2, lastStatusCode: 204 },
        at(261)
      )
      const done = valueOf(yield* store.find(on.id, due.delivery.id))
      assert.strictEqual(done.status, "succeeded")
      assert.isUndefined(done.nextAttemptAt, "an ended delivery is due no more")
      assert.isUndefined(done.lastError)
      yield* store.prune(at(262))
      assert.isTrue(Option.isNone(yield* store.find(on.id, due.delivery.id)), "an ended delivery is pruned")
      assert.isTrue(Option.isSome(yield* store.find(on.id, delivery(2, on).id)), "a waiting one is not")
      yield* webhooks.remove(on.id, entry("webhook.deleted", on.id))
      assert.deepStrictEqual(
        yield* store.page(on.id, undefined, undefined, 10),
        [],
        "deliveries go with their endpoint"
      )
    }).pipe(Effect.provide(stores()))
  )
})

describe.each(kitStoreKinds)("a deleted organisation's endpoints on %s", (_, stores) => {
  it.effect(
    "are found by organisation, counted by what is still to try, and removed with their deliveries",
    () =>
      Effect.gen(function* () {
        const webhooks = yield* WebhookStore
        const store = yield* DeliveryStore
        const gone = webhook(1, other)
        const kept = webhook(2)
        yield* inOther(webhooks.insert(gone, entry("webhook.created", gone.id, other)))
        yield* webhooks.insert(kept, entry("webhook.created", kept.id))
        yield* store.enqueue([delivery(1, gone), delivery(2, kept)])
        assert.deepStrictEqual(
          [...(yield* webhooks.organizationsWithEndpoints)].sort(),
          [defaultOrganizationId, other].sort()
        )
        assert.strictEqual(yield* store.unfinishedOf(other), 1)
        const [claimed] = yield* store
          .claimDue(at(20), at(80), 10)
          .pipe(Effect.map((all) => all.filter((each) => each.delivery.organizationId === other)))
        if (claimed === undefined) return assert.fail("the deleted organisation's delivery is due")
        yield* store.settle(claimed.delivery.id, claimed.claim, { status: "succeeded", attempts: 1 }, at(21))
        assert.strictEqual(yield* store.unfinishedOf(other), 0, "an ended delivery is not still to try")
        // Hours after its organisation went, an endpoint's entries are in the record (on MongoDB, relayed).
        yield* inOther(AuditLog.use((log) => log.page({}, 1)))
        yield* webhooks.removeAllOf(other)
        assert.deepStrictEqual(yield* webhooks.organizationsWithEndpoints, [defaultOrganizationId])
        assert.isTrue(Option.isNone(yield* inOther(store.find(gone.id, delivery(1, gone).id))))
        assert.isTrue(Option.isSome(yield* store.find(kept.id, delivery(2, kept).id)), "another's stay")
        assert.strictEqual(yield* store.unfinishedOf(defaultOrganizationId), 1)
      }).pipe(Effect.provide(stores()))
  )
})

describe.each(storeKinds)("EventSource on %s", (_, stores) => {
  it.effect("holds the entries of announced changes until they are marked sent, oldest first", () =>
    Effect.gen(function* () {
      const webhooks = yield* WebhookStore
      const source = yield* EventSource
      yield* webhooks.insert(webhook(1), entry("webhook.created", webhook(1).id))
      // Entries of announced actions, written with an endpoint's change as any store writes its own.
      const removed = entry("member.removed", webhook(1).id)
      const added = entry("member.added", webhook(1).id)
      yield* webhooks.update(webhook(1).id, { description: "x" }, removed)
      yield* webhooks.update(webhook(1).id, { description: "y" }, added)
      const unsent = yield* source.unsent(10)
      assert.deepStrictEqual(
        unsent.map((found) => found.id),
        [removed.id, added.id],
        "an entry of a change that is not announced is not there"
      )
      assert.deepStrictEqual(
        (yield* source.unsent(1)).map((found) => found.id),
        [removed.id]
      )
      yield* source.markSent([removed.id])
      assert.deepStrictEqual(
        (yield* source.unsent(10)).map((found) => found.id),
        [added.id]
      )
      yield* source.markSent([added.id])
      assert.deepStrictEqual(yield* source.unsent(10), [])
    }).pipe(Effect.provide(stores()))
  )
})
