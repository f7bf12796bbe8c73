import { Context, Layer } from "effect"
import type { DeliveryRecord, WebhookRecord } from "../../core/index.ts"

/** A delivery in memory, with its claim while one holds. */
export interface HeldDelivery {
  readonly record: DeliveryRecord
  readonly claim?: { readonly token: string; readonly until: number }
}

/** Endpoints and their deliveries, shared by the two stores of one build: a claim joins the two. */
export class MemoryWebhookState extends Context.Service<
  MemoryWebhookState,
  {
    readonly webhooks: Map<string, WebhookRecord>
    readonly deliveries: Map<string, HeldDelivery>
    /** `webhookId eventId` of every delivery held: one per event and endpoint. */
    readonly deliveryKeys: Set<string>
  }
>()("roster/memory/MemoryWebhookState") {}

/** The key that makes a delivery one per event and endpoint. */
export const deliveryKeyOf = (delivery: DeliveryRecord) => `${delivery.webhookId} ${delivery.eventId}`

export const webhookStateLayer = Layer.sync(MemoryWebhookState, () =>
  MemoryWebhookState.of({ webhooks: new Map(), deliveries: new Map(), deliveryKeys: new Set() })
)
