import { Context, type DateTime, type Effect, type Option } from "effect"
import type { AuditEntry } from "../model/audit.ts"
import type { StoreUnavailable, WebhookLimit } from "../model/errors.ts"
import type { OrganizationId, WebhookId } from "../model/ids.ts"
import type { SealedSecret } from "../model/mfa.ts"
import type {
  PreviousSigningSecret,
  Webhook,
  WebhookEvents,
  WebhookPosition,
  WebhookRecord
} from "../model/webhook.ts"

/** What a change of an endpoint sets; what it leaves out stays as it is. */
export interface WebhookChanges {
  readonly url?: string
  readonly events?: WebhookEvents
  readonly enabled?: boolean
  readonly description?: string | null
}

/**
 * The organisations' webhook endpoints. The administrators' operations name the current
 * organisation; the sender's (`ofOrganization`, `noteFailing`, `noteSuccess`, `disable`) name it
 * or the endpoint. Each administrator's change is written with its audit entry.
 */
export class WebhookStore extends Context.Service<
  WebhookStore,
  {
    /** Adds the endpoint unless the organisation holds `maxWebhooks` already (checked in the same write). */
    readonly insert: (
      record: WebhookRecord,
      entry: AuditEntry
    ) => Effect.Effect<void, WebhookLimit | StoreUnavailable>
    /** The organisation's endpoints after `after`, oldest first, at most `limit`. */
    readonly page: (
      after: WebhookPosition | undefined,
      limit: number
    ) => Effect.Effect<ReadonlyArray<Webhook>, StoreUnavailable>
    readonly find: (id: WebhookId) => Effect.Effect<Option.Option<WebhookRecord>, StoreUnavailable>
    /** Answers the endpoint as changed; enabling one forgets its failures. None when there is none. */
    readonly update: (
      id: WebhookId,
      changes: WebhookChanges,
      entry: AuditEntry
    ) => Effect.Effect<Option.Option<Webhook>, StoreUnavailable>
    /** Sets a new signing secret, the replaced one signing too while `previous` lasts. */
    readonly rotate: (
      id: WebhookId,
      secret: SealedSecret,
      previous: PreviousSigningSecret | null,
      entry: AuditEntry
    ) => Effect.Effect<Option.Option<Webhook>, StoreUnavailable>
    /** Deletes the endpoint and its deliveries; answers what was deleted. */
    readonly remove: (
      id: WebhookId,
      entry: AuditEntry
    ) => Effect.Effect<Option.Option<Webhook>, StoreUnavailable>
    /** The enabled endpoints of an organisation, any organisation's: who is sent its events. */
    readonly enabledOf: (
      organizationId: OrganizationId
    ) => Effect.Effect<ReadonlyArray<WebhookRecord>, StoreUnavailable>
    /** Records a failure at `at` unless one is recorded since the last success; answers since when it fails. */
    readonly noteFailing: (id: WebhookId, at: DateTime.Utc) => Effect.Effect<DateTime.Utc, StoreUnavailable>
    readonly noteSuccess: (id: WebhookId) => Effect.Effect<void, StoreUnavailable>
    /** The organisations that hold endpoints, deleted ones included. */
    readonly organizationsWithEndpoints: Effect.Effect<ReadonlyArray<OrganizationId>, StoreUnavailable>
    /** Deletes an organisation's endpoints and their deliveries (it was deleted, and they are done). */
    readonly removeAllOf: (organizationId: OrganizationId) => Effect.Effect<void, StoreUnavailable>
    /** Disables an enabled endpoint with its entry; answers whether it was enabled until now. */
    readonly disable: (id: WebhookId, entry: AuditEntry) => Effect.Effect<boolean, StoreUnavailable>
  }
>()("roster/core/ports/WebhookStore") {}
