import { Context, type DateTime, type Effect, type Option } from "effect"
import type { StoreUnavailable } from "../model/errors.ts"
import type { PaymentEventId } from "../model/ids.ts"
import type { InboxEntry, PaymentOutcome } from "../model/payment-event.ts"

/** Every verified provider event, recorded once under its event id. */
export class PaymentInbox extends Context.Service<
  PaymentInbox,
  {
    /** Records the entry unless its event id is known; returns the earlier entry if it was. */
    readonly receive: (entry: InboxEntry) => Effect.Effect<Option.Option<InboxEntry>, StoreUnavailable>
    readonly complete: (
      eventId: PaymentEventId,
      outcome: PaymentOutcome,
      at: DateTime.Utc
    ) => Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/PaymentInbox") {}
