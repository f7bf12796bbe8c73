import { Context, type Effect, type Option } from "effect"
import type { AuditEntry } from "../model/audit.ts"
import type { StoreUnavailable } from "../model/errors.ts"
import type { SubscriptionId } from "../model/ids.ts"
import type { Subscription } from "../model/subscription.ts"

/**
 * An organisation's subscriptions (see `CurrentOrganization`). Our id and the provider's are unique in
 * the deployment: the webhook finds a subscription, and with it the organisation, by either.
 */
export class SubscriptionStore extends Context.Service<
  SubscriptionStore,
  {
    readonly insert: (subscription: Subscription, entry?: AuditEntry) => Effect.Effect<void, StoreUnavailable>
    /** In any organisation: the provider's events name our id. */
    readonly findById: (id: SubscriptionId) => Effect.Effect<Option.Option<Subscription>, StoreUnavailable>
    /** In any organisation: the provider's events name its id. */
    readonly findByProviderSubscriptionId: (
      providerSubscriptionId: string
    ) => Effect.Effect<Option.Option<Subscription>, StoreUnavailable>
    /** Every subscription not yet canceled, newest first (see `byCreation`). */
    readonly listOpen: Effect.Effect<ReadonlyArray<Subscription>, StoreUnavailable>
    /** The newest subscription (see `byCreation`), whatever its status. */
    readonly latest: Effect.Effect<Option.Option<Subscription>, StoreUnavailable>
    /**
     * Compare-and-set: writes `next` only if the stored version is still
     * `next.version - 1`. False when another writer got there first.
     */
    readonly replace: (next: Subscription, entry?: AuditEntry) => Effect.Effect<boolean, StoreUnavailable>
  }
>()("roster/core/ports/SubscriptionStore") {}
