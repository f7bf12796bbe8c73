import { assert, describe, it } from "@effect/vitest"
import { Clock, DateTime, Duration, Effect, Exit, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  AuditLog,
  addMember,
  addRole,
  type CorePorts,
  CurrentOrganization,
  createOrganization,
  createWebhook,
  DeliveryStore,
  defaultOrganizationId,
  deleteOrganization,
  deleteWebhook,
  getWebhook,
  grantPermission,
  listDeliveries,
  listWebhooks,
  NotFound,
  type Principal,
  permissionIdOf,
  pruneDeliveries,
  removeMember,
  retryDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
  WebhookId,
  WebhookStore
} from "../../core/index.ts"
import { actorWith, failureOf, master, password } from "../support/roster.ts"
import { recordingSender, roundsUntilIdle, withSender } from "../support/webhook-sending.ts"

const newEndpoint = (actor: Principal = master, events: ReadonlyArray<string> = ["*"]) =>
  createWebhook(actor, { url: "https://hooks.example.com/roster", events: events as ["*"] })

let people = 0
const aMember = (roleId: number) => {
  const username = `person${++people}`
  return addMember(master, {
    username,
    email: `${username}@example.com`,
    password: Redacted.make(password),
    activestatus: true,
    roleId: roleId as never
  })
}

describe("announcing changes", () => {
  it.effect(
    "posts each subscribed change once, signed with the endpoint's secret, with the resource and no secret",
    () => {
      const sender = recordingSender()
      return Effect.gen(function* () {
        const { secret } = yield* newEndpoint(master, [
          "member.added",
          "member.removed",
          "role.permissions_changed"
        ])
        const role = yield* addRole(master, { name: "Staff", roleKey: "staff" })
        yield* grantPermission(master, { roleId: role.id, permissionId: permissionIdOf("team.read") })
        const member = yield* aMember(role.id)
        yield* removeMember(master, member.id)
        yield* roundsUntilIdle
        assert.deepStrictEqual(
          sender.sent.map((message) => message.type),
          ["role.permissions_changed", "member.added", "member.removed"]
        )
        for (const message of sender.sent) {
          assert.deepStrictEqual(message.secrets, [Redacted.value(secret)])
          assert.notMatch(message.body, /password|hash|whsec_/iu)
          assert.strictEqual(message.data.organizationId, "default")
        }
        const [granted, added, removed] = sender.sent
        assert.deepStrictEqual(granted?.data, {
          organizationId: "default",
          roleId: role.id,
          permissionId: permissionIdOf("team.read"),
          granted: true
        })
        assert.deepInclude(added?.data.member as object, {
          id: member.id,
          username: member.username,
          roleId: role.id
        })
        assert.deepInclude(removed?.data.member as object, { id: member.id, email: member.email })
        assert.strictEqual(new Set(sender.sent.map((message) => message.id)).size, 3)
        assert.match(added?.id ?? "", /^evt_/u)
        yield* roundsUntilIdle
        assert.strictEqual(sender.sent.length, 3, "nothing is sent twice")
      }).pipe(withSender(sender))
    }
  )

  it.effect(
    "sends an endpoint neither what happened before it existed nor another organisation's changes",
    () => {
      const sender = recordingSender()
      return Effect.gen(function* () {
        yield* addRole(master, { name: "Before", roleKey: "before" })
        const other = yield* createOrganization(master, { name: "Other", slug: "other" })
        yield* TestClock.adjust(Duration.seconds(1))
        yield* newEndpoint()
        yield* addRole(master, { name: "Theirs", roleKey: "theirs" }).pipe(
          Effect.provideService(CurrentOrganization, other.id)
        )
        yield* roundsUntilIdle
        assert.deepStrictEqual(sender.sent, [])
        yield* addRole(master, { name: "Mine", roleKey: "mine" })
        yield* roundsUntilIdle
        assert.deepStrictEqual(
          sender.sent.map((message) => [message.type, (message.data.role as { name: string }).name]),
          [["role.created", "Mine"]]
        )
      }).pipe(withSender(sender))
    }
  )

  it.effect("sends a change of fields with what they were, and an event of a type left out to no one", () => {
    const sender = recordingSender()
    return Effect.gen(function* () {
      yield* newEndpoint(master, ["member.updated"])
      const role = yield* addRole(master, { name: "Staff", roleKey: "staff" })
      const member = yield* aMember(role.id)
      const { updateMember } = yield* Effect.promise(() => import("../../core/index.ts"))
      yield* updateMember(master, member.id, { email: "new@example.com" })
      yield* roundsUntilIdle
      assert.deepStrictEqual(
        sender.sent.map((message) => message.data),
        [
          {
            organizationId: "default",
            member: { id: member.id, email: "new@example.com" },
            previous: { email: member.email }
          }
        ]
      )
    }).pipe(withSender(sender))
  })
})

describe("a deleted organisation", () => {
  it.effect("is announced to its endpoints, which are removed once nothing is left to try", () => {
    const sender = recordingSender()
    return Effect.gen(function* () {
      yield* newEndpoint(master, ["member.added"])
      const other = yield* createOrganization(master, { name: "Other", slug: "other" })
      const inOther = Effect.provideService(CurrentOrganization, other.id)
      const { webhook } = yield* inOther(newEndpoint(master, ["organization.deleted"]))
      sender.answers.push({ statusCode: 500 })
      yield* inOther(deleteOrganization(master))
      yield* roundsUntilIdle
      assert.deepStrictEqual(
        sender.sent.map((message) => [message.type, message.data.organizationId]),
        [["organization.deleted", other.id]]
      )
      yield* pruneDeliveries
      assert.deepStrictEqual(
        [...(yield* WebhookStore.use((store) => store.organizationsWithEndpoints))].sort(),
        [defaultOrganizationId, other.id].sort(),
        "kept while a try is due"
      )
      yield* TestClock.adjust(Duration.seconds(6))
      yield* roundsUntilIdle
      assert.strictEqual(sender.sent.length, 2)
      yield* pruneDeliveries
      assert.deepStrictEqual(
        yield* WebhookStore.use((store) => store.organizationsWithEndpoints),
        [defaultOrganizationId],
        "a live organisation's endpoints stay"
      )
      assert.isTrue(Option.isNone(yield* inOther(WebhookStore.use((store) => store.find(webhook.id)))))
    }).pipe(withSender(sender))
  })
})

describe("retrying", () => {
  it.effect(
    "tries again on the schedule, jittered, honours Retry-After, and exhausts after the last wait",
    () => {
      const sender = recordingSender()
      return Effect.gen(function* () {
        const { webhook } = yield* newEndpoint(master, ["role.created"])
        sender.answers.push(
          { statusCode: 500, response: "x".repeat(10) },
          { statusCode: 503, retryAfter: 3600 },
          { error: "timed out" }
        )
        const waitOf = (delivery: { readonly nextAttemptAt?: DateTime.Utc } | undefined) =>
          Effect.map(
            Clock.currentTimeMillis,
            (now) => DateTime.toEpochMillis(delivery?.nextAttemptAt ?? DateTime.makeUnsafe(0)) - now
          )
        yield* addRole(master, { name: "Staff", roleKey: "staff" })
        yield* roundsUntilIdle
        const [first] = (yield* listDeliveries(master, webhook.id)).items
        assert.strictEqual(first?.status, "failed")
        assert.strictEqual(first?.lastStatusCode, 500)
        assert.strictEqual(first?.lastResponse, "xxxxxxxxxx")
        const wait = yield* waitOf(first)
        assert.isTrue(wait >= 4500 && wait <= 5500, `5 s ± 10 %, got ${wait}`)
        yield* TestClock.adjust(Duration.seconds(4))
        yield* roundsUntilIdle
        assert.strictEqual(sender.sent.length, 1, "not before its time")
        yield* TestClock.adjust(Duration.seconds(2))
        yield* roundsUntilIdle
        const [second] = (yield* listDeliveries(master, webhook.id)).items
        assert.strictEqual(yield* waitOf(second), 3_600_000, "a Retry-After longer than the schedule's wait")
        yield* TestClock.adjust(Duration.hours(1))
        yield* roundsUntilIdle
        const [third] = (yield* listDeliveries(master, webhook.id)).items
        assert.strictEqual(third?.lastError, "timed out")
        assert.strictEqual(third?.attempts, 3)
        sender.otherwise.answer = { statusCode: 503 }
        for (let i = 0; i < 6; i++) {
          yield* TestClock.adjust(Duration.hours(11))
          yield* roundsUntilIdle
        }
        const [last] = (yield* listDeliveries(master, webhook.id)).items
        assert.strictEqual(last?.status, "exhausted")
        assert.strictEqual(last?.attempts, 8, "one try, then one after each of the seven waits")
        assert.isUndefined(last?.nextAttemptAt)
        assert.strictEqual(sender.sent.length, 8)
        assert.strictEqual(
          new Set(sender.sent.map((message) => message.id)).size,
          1,
          "the same webhook-id on every try"
        )
        sender.otherwise.answer = { statusCode: 204 }
        const retried = yield* retryDelivery(master, webhook.id, last?.id ?? ("" as never))
        assert.strictEqual(retried.status, "pending")
        yield* roundsUntilIdle
        assert.strictEqual(
          (yield* listDeliveries(master, webhook.id, { status: "succeeded" })).items.length,
          1
        )
      }).pipe(withSender(sender))
    }
  )

  it.effect(
    "disables an endpoint at once on 410, and after five days of failures, audited as Roster's own",
    () => {
      const sender = recordingSender()
      return Effect.gen(function* () {
        const gone = yield* newEndpoint(master, ["role.created"])
        sender.answers.push({ statusCode: 410 })
        yield* addRole(master, { name: "One", roleKey: "one" })
        yield* roundsUntilIdle
        assert.isFalse((yield* getWebhook(master, gone.webhook.id)).enabled)
        const [delivery] = (yield* listDeliveries(master, gone.webhook.id)).items
        assert.strictEqual(delivery?.status, "exhausted")
        yield* addRole(master, { name: "Two", roleKey: "two" })
        yield* roundsUntilIdle
        assert.strictEqual(sender.sent.length, 1, "a disabled endpoint is sent nothing")

        yield* deleteWebhook(master, gone.webhook.id)
        const failing = yield* newEndpoint(master, ["role.created"])
        sender.otherwise.answer = { statusCode: 500 }
        for (let day = 0; day < 6; day++) {
          yield* addRole(master, { name: `Day ${day}`, roleKey: `day${day}` })
          yield* roundsUntilIdle
          yield* TestClock.adjust(Duration.days(1))
          yield* roundsUntilIdle
        }
        assert.isFalse(
          (yield* getWebhook(master, failing.webhook.id)).enabled,
          "five days of failure disable it"
        )
        const disabled = yield* AuditLog.use((log) => log.page({ action: "webhook.disabled" }, 10))
        assert.deepStrictEqual(
          disabled.map((entry) => [entry.actor, entry.target.id, entry.changes.reason?.[1]]),
          [
            [{ kind: "system" }, failing.webhook.id, "failing"],
            [{ kind: "system" }, gone.webhook.id, "gone"]
          ]
        )
        const enabled = yield* updateWebhook(master, failing.webhook.id, { enabled: true })
        assert.isTrue(enabled.enabled)
        assert.isNull(
          Option.getOrThrow(yield* WebhookStore.use((store) => store.find(failing.webhook.id))).failingSince
        )
      }).pipe(withSender(sender))
    }
  )

  it.effect("signs with the old secret and the new for 24 hours after a rotation", () => {
    const sender = recordingSender()
    return Effect.gen(function* () {
      const { webhook, secret } = yield* newEndpoint()
      const rotated = yield* rotateWebhookSecret(master, webhook.id)
      yield* sendTestEvent(master, webhook.id)
      yield* roundsUntilIdle
      assert.deepStrictEqual(sender.sent[0]?.secrets, [
        Redacted.value(rotated.secret),
        Redacted.value(secret)
      ])
      yield* TestClock.adjust(Duration.hours(25))
      yield* sendTestEvent(master, webhook.id)
      yield* roundsUntilIdle
      assert.deepStrictEqual(sender.sent[1]?.secrets, [Redacted.value(rotated.secret)])
      assert.strictEqual(sender.sent[1]?.type, "webhook.test")
    }).pipe(withSender(sender))
  })
})

describe("who may manage endpoints", () => {
  it.effect(
    "a reader lists endpoints and deliveries but changes nothing; another organisation's ids are not found",
    () => {
      const sender = recordingSender()
      return Effect.gen(function* () {
        const { webhook } = yield* newEndpoint()
        const delivery = yield* sendTestEvent(master, webhook.id)
        const reader = (yield* actorWith("reader", ["team.read"])).principal
        assert.strictEqual((yield* listWebhooks(reader)).items.length, 1)
        assert.strictEqual((yield* listDeliveries(reader, webhook.id)).items.length, 1)
        const attempts: ReadonlyArray<Effect.Effect<unknown, unknown, CorePorts>> = [
          newEndpoint(reader),
          updateWebhook(reader, webhook.id, { enabled: false }),
          deleteWebhook(reader, webhook.id),
          rotateWebhookSecret(reader, webhook.id),
          sendTestEvent(reader, webhook.id),
          retryDelivery(reader, webhook.id, delivery.id)
        ]
        for (const attempt of attempts) {
          const failure = failureOf(yield* Effect.exit(attempt))
          assert.strictEqual((failure as { _tag?: string })?._tag, "Forbidden")
        }
        const outsider = (yield* actorWith("nobody", [])).principal
        assert.strictEqual(failureOf(yield* Effect.exit(listWebhooks(outsider)))?._tag, "Forbidden")
        const other = yield* createOrganization(master, { name: "Other", slug: "other" })
        const inOther = Effect.provideService(CurrentOrganization, other.id)
        const elsewhere: ReadonlyArray<Effect.Effect<unknown, unknown, CorePorts>> = [
          getWebhook(master, webhook.id),
          updateWebhook(master, webhook.id, { enabled: false }),
          deleteWebhook(master, webhook.id),
          rotateWebhookSecret(master, webhook.id),
          sendTestEvent(master, webhook.id),
          listDeliveries(master, webhook.id),
          retryDelivery(master, webhook.id, delivery.id)
        ]
        for (const attempt of elsewhere) {
          assert.instanceOf(failureOf(yield* Effect.exit(inOther(attempt))), NotFound)
        }
        const theirs = yield* inOther(newEndpoint())
        assert.instanceOf(
          failureOf(yield* Effect.exit(retryDelivery(master, theirs.webhook.id, delivery.id))),
          NotFound
        )
        assert.isTrue((yield* getWebhook(master, webhook.id)).enabled, "nothing changed")
        assert.strictEqual(
          yield* DeliveryStore.use((store) => store.page(webhook.id, undefined, undefined, 10)).pipe(
            Effect.map((d) => d.length)
          ),
          1
        )
        assert.isTrue(Exit.isSuccess(yield* Effect.exit(getWebhook(master, WebhookId.make(webhook.id)))))
      }).pipe(withSender(sender))
    }
  )

  it.effect("keeps the signing secret sealed under the secrets key", () => {
    const sender = recordingSender()
    return Effect.gen(function* () {
      const { webhook, secret } = yield* newEndpoint()
      const stored = Option.getOrThrow(yield* WebhookStore.use((store) => store.find(webhook.id)))
      assert.match(stored.secret, /^v1\./u)
      assert.notInclude(stored.secret, Redacted.value(secret).slice(6))
      yield* sendTestEvent(master, webhook.id)
      yield* roundsUntilIdle
      assert.deepStrictEqual(sender.sent[0]?.secrets, [Redacted.value(secret)])
    }).pipe(withSender(sender, { secretsKeys: ["a secrets key long enough to be accepted here"] }))
  })
})
