import { DateTime, Duration, Effect, Random, type Redacted } from "effect"
import type { ClaimedDelivery } from "../../model/delivery.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { DeliveryPolicy } from "../../ports/delivery-policy.ts"
import { DeliveryStore } from "../../ports/delivery-store.ts"
import { SecretBox } from "../../ports/secret-box.ts"
import { type SendResult, WebhookSender } from "../../ports/webhook-sender.ts"
import { WebhookStore } from "../../ports/webhook-store.ts"
import { newAuditEntry } from "../audit/new-audit-entry.ts"
import { outcomeOf } from "./next-attempt.ts"

/** Tries sent at once by one instance: a slow receiver holds one of them, not the sender. */
const concurrency = 16

const secretsOf = Effect.fnUntraced(function* ({ webhook }: ClaimedDelivery, now: DateTime.Utc) {
  const box = yield* SecretBox
  const secrets: Array<Redacted.Redacted<string>> = [yield* box.open(webhook.secret)]
  if (webhook.previous !== null && DateTime.isGreaterThan(webhook.previous.until, now)) {
    secrets.push(yield* box.open(webhook.previous.secret))
  }
  return secrets
})

/** Disables the endpoint, audited as Roster's own doing; none when it was disabled already. */
const disable = (claimed: ClaimedDelivery, reason: "gone" | "failing") =>
  Effect.gen(function* () {
    const entry = yield* newAuditEntry(
      { kind: "system" },
      "webhook.disabled",
      { type: "webhook", id: claimed.webhook.id },
      { enabled: [true, false], reason: [null, reason] }
    )
    yield* (yield* WebhookStore).disable(claimed.webhook.id, entry)
  }).pipe(Effect.provideService(CurrentOrganization, claimed.webhook.organizationId))

const attempt = Effect.fnUntraced(function* (claimed: ClaimedDelivery) {
  const { delivery, webhook } = claimed
  const policy = yield* DeliveryPolicy
  const sender = yield* WebhookSender
  // Unsigned, nothing is sent: the try fails, and is made again once the operator restores the key.
  const result = yield* secretsOf(claimed, yield* DateTime.now).pipe(
    Effect.flatMap((secrets) =>
      sender.send({ url: webhook.url, id: delivery.eventId, body: delivery.body, secrets })
    ),
    Effect.catchTag(
      "SecretUnreadable",
      (): Effect.Effect<SendResult> =>
        Effect.succeed({
          error: "not sent: the signing secret is sealed under a key ROSTER_SECRETS_KEY no longer holds"
        })
    )
  )
  const now = yield* DateTime.now
  const outcome = outcomeOf(result, delivery.attempts, policy.retrySchedule, now, yield* Random.next)
  const webhooks = yield* WebhookStore
  if (outcome.status === "succeeded") {
    if (webhook.failingSince !== null) yield* webhooks.noteSuccess(webhook.id)
  } else if (result.statusCode === 410) {
    yield* disable(claimed, "gone")
  } else {
    const since = yield* webhooks.noteFailing(webhook.id, now)
    if (Duration.isGreaterThanOrEqualTo(DateTime.distance(since, now), policy.disableAfter)) {
      yield* disable(claimed, "failing")
    }
  }
  yield* (yield* DeliveryStore).settle(delivery.id, claimed.claim, outcome, now)
})

/**
 * Claims a batch of due deliveries and tries each: a claim holds for the policy's lease, so no
 * other instance tries them meanwhile, and one this instance never settles (it stopped) is tried
 * again after. Claims at most `limit`; answers how many it claimed.
 */
export const sendDueDeliveries = Effect.fnUntraced(function* (limit: number) {
  const policy = yield* DeliveryPolicy
  const now = yield* DateTime.now
  const claimed = yield* (yield* DeliveryStore).claimDue(now, DateTime.addDuration(now, policy.lease), limit)
  yield* Effect.forEach(claimed, attempt, { concurrency, discard: true })
  return claimed.length
})
