import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Schema } from "effect"
import {
  AuditEntry,
  AuditEntryId,
  DeliveryId,
  type AuditEntry as Entry,
  EventId,
  eventsOfEntry,
  isAnnounced,
  OrganizationId,
  outcomeOf,
  pendingDelivery,
  retried,
  settled,
  subscribesTo,
  WebhookEvents,
  WebhookId,
  WebhookUrl
} from "../../core/index.ts"

const at = (second: number) => DateTime.makeUnsafe(second * 1000)
const acme = OrganizationId.make("org_acme")

const entryOf = (
  action: Entry["action"],
  changes: Entry["changes"],
  target: Entry["target"] = { type: "member", id: "m-1" },
  organizationId: OrganizationId | null = acme
) =>
  new AuditEntry({
    id: AuditEntryId.make("aud_0001"),
    at: at(60),
    action,
    actor: { kind: "master" },
    target,
    changes,
    ...(organizationId === null ? {} : { organizationId })
  })

const dataOf = (entry: Entry) => {
  const [event] = eventsOfEntry(entry)
  if (event === undefined) return assert.fail(`${entry.action} is announced`)
  return { type: event.type, id: event.id, ...JSON.parse(event.body) }
}

describe("the events an audit entry announces", () => {
  it("names the event after the entry, carries the made object's fields after, and the time of the change", () => {
    const made = dataOf(
      entryOf("member.added", { username: [null, "ada"], email: [null, "a@x.io"], roleId: [null, 3] })
    )
    assert.deepStrictEqual(made, {
      type: "member.added",
      id: EventId.make("evt_0001"),
      timestamp: "1970-01-01T00:01:00.000Z",
      data: { organizationId: acme, member: { id: "m-1", username: "ada", email: "a@x.io", roleId: 3 } }
    })
  })

  it("carries a gone object's fields before, and a changed one's fields after with what they were", () => {
    assert.deepStrictEqual(
      dataOf(entryOf("member.removed", { username: ["ada", null], activestatus: [true, null] })).data,
      {
        organizationId: acme,
        member: { id: "m-1", username: "ada", activestatus: true }
      }
    )
    assert.deepStrictEqual(
      dataOf(
        entryOf("member.updated", { roleId: [3, 4], email: [null, "b@x.io"], activestatus: [true, false] })
      ).data,
      {
        organizationId: acme,
        member: { id: "m-1", roleId: 4, email: "b@x.io", activestatus: false },
        previous: { roleId: 3, email: null, activestatus: true }
      }
    )
    assert.deepStrictEqual(dataOf(entryOf("email.verified", {})).data, {
      organizationId: acme,
      member: { id: "m-1", emailVerified: true },
      previous: { emailVerified: false }
    })
  })

  it("maps each announced action to its type, and says permission changes with their role", () => {
    const typeOf = (action: Entry["action"]) => eventsOfEntry(entryOf(action, {}))[0]?.type
    assert.deepStrictEqual(
      (
        [
          "account.enabled",
          "account.disabled",
          "role.added",
          "role.removed",
          "subscription.created",
          "invitation.accepted",
          "organization.deleted",
          "api_key.revoked"
        ] as const
      ).map(typeOf),
      [
        "member.updated",
        "member.updated",
        "role.created",
        "role.deleted",
        "subscription.updated",
        "invitation.accepted",
        "organization.deleted",
        "api_key.revoked"
      ]
    )
    const target = { type: "role_permission_detail" as const, id: "7" }
    assert.deepStrictEqual(
      dataOf(entryOf("permission.removed", { roleId: [5, 5], permissionId: [8, null] }, target)).data,
      {
        organizationId: acme,
        roleId: 5,
        permissionId: 8,
        granted: false
      }
    )
    assert.deepStrictEqual(dataOf(entryOf("permission.granted", { permissionId: [null, 2] }, target)).data, {
      organizationId: acme,
      permissionId: 2,
      granted: true
    })
    assert.deepStrictEqual(
      dataOf(entryOf("role.updated", { name: ["Ops", "Operations"] }, { type: "role", id: "5" })).data.role,
      { id: 5, name: "Operations" },
      "a role's id is its number, as the API answers it"
    )
    assert.strictEqual(
      dataOf(entryOf("role.added", {}, { type: "role", id: "5" }, null)).data.organizationId,
      "default",
      "an entry of no organisation's request is the default organisation's"
    )
  })

  it("leaves out fields with no value on the side it carries, and a role of none", () => {
    assert.deepStrictEqual(
      dataOf(entryOf("member.added", { username: [null, "ada"], email: [null, null] })).data.member,
      { id: "m-1", username: "ada" }
    )
    assert.deepStrictEqual(dataOf(entryOf("member.updated", { email: ["a@x.io", null] })).data.member, {
      id: "m-1"
    })
    const target = { type: "role_permission_detail" as const, id: "7" }
    assert.deepStrictEqual(
      dataOf(entryOf("permission.granted", { roleId: [null, 5], permissionId: [null, 2] }, target)).data,
      { organizationId: acme, roleId: 5, permissionId: 2, granted: true }
    )
    assert.deepStrictEqual(
      dataOf(entryOf("permission.granted", { roleId: [null, null], permissionId: [null, 2] }, target)).data,
      { organizationId: acme, permissionId: 2, granted: true }
    )
  })

  it("announces sessions ended: one by its id and its account, or all of an account's", () => {
    const bodies = (entry: Entry) =>
      eventsOfEntry(entry).map((event) => ({ id: event.id, ...JSON.parse(event.body) }))
    const ended = new AuditEntry({
      ...entryOf("session.revoked", {}, { type: "session", id: "ses_1" }),
      actor: { kind: "member", id: "m-1" }
    })
    assert.deepStrictEqual(bodies(ended), [
      {
        id: "evt_0001",
        type: "session.revoked",
        timestamp: "1970-01-01T00:01:00.000Z",
        data: { organizationId: acme, accountId: "m-1", sid: "ses_1" }
      }
    ])
    for (const action of ["member.password_set", "member.password_changed", "password.reset"] as const) {
      assert.deepStrictEqual(
        bodies(entryOf(action, {})).map(({ type, data }) => ({ type, data })),
        [{ type: "session.revoked", data: { organizationId: acme, accountId: "m-1" } }],
        action
      )
    }
    const disabled = bodies(entryOf("account.disabled", { accountActiveStatus: [true, false] }))
    assert.deepStrictEqual(
      disabled.map(({ id, type }) => [id, type]),
      [
        ["evt_0001", "member.updated"],
        ["evt_0001.sessions", "session.revoked"]
      ],
      "a disabled account is a member changed and its sessions ended, each event with an id of its own"
    )
    assert.deepStrictEqual(disabled[1]?.data, { organizationId: acme, accountId: "m-1" })
  })

  it("announces an API key's change with what it was", () => {
    const [event] = eventsOfEntry(
      entryOf("api_key.updated", { name: ["old", "new"] }, { type: "api_key", id: "key_1" })
    )
    assert.strictEqual(event?.type, "api_key.updated")
    assert.deepStrictEqual(JSON.parse(event?.body ?? "{}").data, {
      organizationId: acme,
      api_key: { id: "key_1", name: "new" },
      previous: { name: "old" }
    })
  })

  it("announces none of the changes the catalog leaves out", () => {
    for (const action of ["login.failed", "api_key.rotated", "webhook.created", "mfa.enabled"] as const) {
      assert.isFalse(isAnnounced(action), action)
      assert.deepStrictEqual(eventsOfEntry(entryOf(action, {})), [], action)
    }
    for (const action of [
      "member.added",
      "permission.granted",
      "permission.removed",
      "api_key.created"
    ] as const)
      assert.isTrue(isAnnounced(action), action)
  })
})

describe("trying a delivery again", () => {
  const schedule = [Duration.seconds(10), Duration.minutes(5)]
  const now = at(1000)
  const waitOf = (outcome: ReturnType<typeof outcomeOf>) =>
    outcome.nextAttemptAt === undefined
      ? undefined
      : DateTime.toEpochMillis(outcome.nextAttemptAt) - 1_000_000

  it("succeeds on any 2xx only", () => {
    for (const statusCode of [200, 204, 299])
      assert.strictEqual(outcomeOf({ statusCode }, 0, schedule, now, 0.5).status, "succeeded")
    for (const statusCode of [199, 300, 302, 404, 500])
      assert.strictEqual(outcomeOf({ statusCode }, 0, schedule, now, 0.5).status, "failed")
    assert.deepStrictEqual(outcomeOf({ statusCode: 204, response: "" }, 2, schedule, now, 0.5), {
      status: "succeeded",
      attempts: 3,
      lastStatusCode: 204,
      lastResponse: ""
    })
  })

  it("waits the schedule's next wait, ±10 %, or a longer Retry-After, and is exhausted after the last", () => {
    assert.strictEqual(waitOf(outcomeOf({ statusCode: 500 }, 0, schedule, now, 0)), 9000)
    assert.strictEqual(waitOf(outcomeOf({ statusCode: 500 }, 0, schedule, now, 0.5)), 10_000)
    assert.strictEqual(waitOf(outcomeOf({ statusCode: 500 }, 0, schedule, now, 0.999999)), 11_000)
    assert.strictEqual(waitOf(outcomeOf({ statusCode: 500 }, 1, schedule, now, 0.5)), 300_000)
    assert.strictEqual(waitOf(outcomeOf({ statusCode: 503, retryAfter: 5 }, 0, schedule, now, 0.5)), 10_000)
    assert.strictEqual(waitOf(outcomeOf({ statusCode: 503, retryAfter: 60 }, 0, schedule, now, 0.5)), 60_000)
    const last = outcomeOf({ error: "refused" }, 2, schedule, now, 0.5)
    assert.deepStrictEqual(last, { status: "exhausted", attempts: 3, lastError: "refused" })
    assert.deepStrictEqual(outcomeOf({ statusCode: 410 }, 0, schedule, now, 0.5), {
      status: "exhausted",
      attempts: 1,
      lastStatusCode: 410
    })
  })

  it("keeps of the last try only what it said, and a retry by hand is due now", () => {
    const fields = {
      id: DeliveryId.make("dlv_1"),
      eventId: EventId.make("evt_1"),
      type: "webhook.test" as const,
      webhookId: WebhookId.make("whk_1"),
      organizationId: acme,
      body: "{}"
    }
    const fresh = pendingDelivery(fields, at(1))
    assert.strictEqual(fresh.status, "pending")
    assert.strictEqual(fresh.attempts, 0)
    assert.isTrue(fresh.nextAttemptAt !== undefined && DateTime.Equivalence(fresh.nextAttemptAt, at(1)))
    const failed = settled(
      fresh,
      { status: "failed", attempts: 1, lastStatusCode: 500, lastResponse: "no", nextAttemptAt: at(9) },
      at(2)
    )
    const ended = settled(failed, { status: "exhausted", attempts: 2, lastError: "timed out" }, at(3))
    assert.isUndefined(ended.lastStatusCode, "the last try had no status")
    assert.isUndefined(ended.lastResponse)
    assert.isUndefined(ended.nextAttemptAt)
    assert.strictEqual(ended.lastError, "timed out")
    assert.isTrue(DateTime.Equivalence(ended.updatedAt, at(3)))
    assert.isTrue(DateTime.Equivalence(ended.createdAt, at(1)))
    const again = retried(ended, at(4))
    assert.strictEqual(again.status, "pending")
    assert.strictEqual(again.attempts, 2, "a retry by hand keeps the count")
    assert.isTrue(again.nextAttemptAt !== undefined && DateTime.Equivalence(again.nextAttemptAt, at(4)))
  })
})

describe("an endpoint's URL and events", () => {
  const accepts = (schema: Schema.Top, value: unknown) => Schema.is(schema as Schema.Codec<unknown>)(value)

  it("takes absolute http(s) URLs without credentials or spaces", () => {
    for (const url of [
      "https://hooks.example.com",
      "https://hooks.example.com:8443/a?b=c#d",
      "http://10.0.0.1/x",
      "https://[::1]:99/"
    ])
      assert.isTrue(accepts(WebhookUrl, url), url)
    for (const url of [
      "ftp://x.io/",
      "https://u:p@x.io/",
      "https://x.io/a b",
      "x.io/hooks",
      "https://-x.io/",
      "https://x.io:123456/",
      ""
    ])
      assert.isFalse(accepts(WebhookUrl, url), url)
    assert.isFalse(accepts(WebhookUrl, `https://x.io/${"a".repeat(2040)}`), "at most 2048 characters")
  })

  it("takes some event types, or * alone, and sends each endpoint what it takes", () => {
    assert.isTrue(accepts(WebhookEvents, ["*"]))
    assert.isTrue(accepts(WebhookEvents, ["member.added", "role.deleted"]))
    for (const events of [[], ["*", "member.added"], ["member.added", "*"], ["member.exploded"]])
      assert.isFalse(accepts(WebhookEvents, events), JSON.stringify(events))
    assert.isTrue(subscribesTo(["*"], "member.added"))
    assert.isTrue(subscribesTo(["role.created", "member.added"], "member.added"))
    assert.isFalse(subscribesTo(["role.created"], "member.added"))
  })
})
