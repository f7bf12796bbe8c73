import { Context, type DateTime, type Effect, type Option } from "effect"
import type {
  ClaimedDelivery,
  Delivery,
  DeliveryOutcome,
  DeliveryPosition,
  DeliveryRecord,
  DeliveryStatus
} from "../model/delivery.ts"
import type { StoreUnavailable } from "../model/errors.ts"
import type { DeliveryId, OrganizationId, WebhookId } from "../model/ids.ts"

/**
 * Events' deliveries to endpoints, and their claims. A claim is what keeps two instances from
 * sending the same try: it holds until its lease ends, then any instance may take the delivery.
 * `page`, `find` and `retry` name the current organisation's endpoints; the sender's verbs any.
 */
export class DeliveryStore extends Context.Service<
  DeliveryStore,
  {
    /** Adds deliveries; one of an event to an endpoint that is there already is kept as it is. */
    readonly enqueue: (deliveries: ReadonlyArray<DeliveryRecord>) => Effect.Effect<void, StoreUnavailable>
    /** An endpoint's deliveries, newest first, after `after`, at most `limit`. */
    readonly page: (
      webhookId: WebhookId,
      status: DeliveryStatus | undefined,
      after: DeliveryPosition | undefined,
      limit: number
    ) => Effect.Effect<ReadonlyArray<Delivery>, StoreUnavailable>
    readonly find: (
      webhookId: WebhookId,
      id: DeliveryId
    ) => Effect.Effect<Option.Option<Delivery>, StoreUnavailable>
    /** Makes a delivery due now, whatever its status; answers it as changed. */
    readonly retry: (
      webhookId: WebhookId,
      id: DeliveryId,
      now: DateTime.Utc
    ) => Effect.Effect<Option.Option<Delivery>, StoreUnavailable>
    /**
     * Claims up to `limit` deliveries due at `now` to enabled endpoints and not claimed by a lease
     * still running, until `leaseUntil`: each is claimed by one caller only.
     */
    readonly claimDue: (
      now: DateTime.Utc,
      leaseUntil: DateTime.Utc,
      limit: number
    ) => Effect.Effect<ReadonlyArray<ClaimedDelivery>, StoreUnavailable>
    /** Writes a try's outcome and ends the claim, if the claim is still `claim`; answers whether it was. */
    readonly settle: (
      id: DeliveryId,
      claim: string,
      outcome: DeliveryOutcome,
      now: DateTime.Utc
    ) => Effect.Effect<boolean, StoreUnavailable>
    /** How many of an organisation's deliveries have not ended (pending or failed). */
    readonly unfinishedOf: (organizationId: OrganizationId) => Effect.Effect<number, StoreUnavailable>
    /** Deletes the deliveries that ended (succeeded or exhausted) before `before`. */
    readonly prune: (before: DateTime.Utc) => Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/DeliveryStore") {}
