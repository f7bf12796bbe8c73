import { randomUUID } from "node:crypto"
import { Effect, Layer, Option } from "effect"
import {
  type ClaimedDelivery,
  DeliveryRecord,
  DeliveryStore,
  inOrganization,
  retried,
  settled,
  toDelivery,
  type WebhookRecord
} from "../../core/index.ts"
import { RecordKit } from "./records.ts"
import { deliveries, webhooks } from "./webhook-records.ts"

/** How many due deliveries are looked at for each one claimed: some are of endpoints switched off. */
const lookedAtPerClaim = 4

export const deliveryStoreLayer = Layer.effect(
  DeliveryStore,
  Effect.gen(function* () {
    const kit = yield* RecordKit
    const sent = yield* kit.open(deliveries)
    const endpoints = yield* kit.open(webhooks)
    const shown = Effect.map(Option.map(({ after }: { readonly after: DeliveryRecord }) => toDelivery(after)))
    return DeliveryStore.of({
      enqueue: (records) => sent.insertNew(records),
      page: (webhookId, status, after, limit) =>
        inOrganization((organizationId) =>
          sent.list(
            { webhookId, organizationId, status },
            { by: ["createdAt"], descending: true, ...(after === undefined ? {} : { after }), limit }
          )
        ).pipe(Effect.map((found) => found.map(toDelivery))),
      find: (webhookId, id) =>
        inOrganization((organizationId) => sent.find({ id, webhookId, organizationId })).pipe(
          Effect.map(Option.map(toDelivery))
        ),
      retry: (webhookId, id, now) =>
        inOrganization((organizationId) =>
          sent.modify({ id, webhookId, organizationId }, (record) => retried(record, now))
        ).pipe(shown),
      claimDue: (now, leaseUntil, limit) =>
        Effect.gen(function* () {
          const free = { nextAttemptAt: { lte: now }, leaseUntil: { lte: now, orNone: true } } as const
          const due = yield* sent.list(free, { by: ["nextAttemptAt"], limit: limit * lookedAtPerClaim })
          if (due.length === 0) return []
          const ids = [...new Set(due.map((delivery) => delivery.webhookId))]
          const open = yield* endpoints.list({ id: { in: ids } }, { by: [] })
          const byId = new Map<string, WebhookRecord>(open.map((webhook) => [webhook.id, webhook]))
          const claimed: Array<ClaimedDelivery> = []
          for (const candidate of due) {
            if (claimed.length === limit) break
            const webhook = byId.get(candidate.webhookId)
            // Its endpoint is gone: what its removal left behind goes now.
            if (webhook === undefined) yield* sent.remove({ id: candidate.id })
            if (webhook === undefined || !webhook.enabled) continue
            const claim = randomUUID()
            const taken = yield* sent.modify(
              { id: candidate.id, ...free },
              (record) => new DeliveryRecord({ ...record, claim, leaseUntil }, { disableChecks: true })
            )
            if (Option.isSome(taken)) claimed.push({ delivery: taken.value.after, webhook, claim })
          }
          return claimed
        }),
      settle: (id, claim, outcome, now) =>
        sent.modify({ id, claim }, (record) => settled(record, outcome, now)).pipe(Effect.map(Option.isSome)),
      unfinishedOf: (organizationId) => sent.count({ organizationId, nextAttemptAt: { present: true } }),
      prune: (before) => sent.removeAll({ nextAttemptAt: null, updatedAt: { lt: before } })
    })
  })
)
