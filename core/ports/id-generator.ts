import { Context, type Effect } from "effect"
import type { AuditEntryId } from "../model/audit.ts"
import type {
  ApiKeyId,
  DeliveryId,
  EventId,
  InvitationId,
  MemberId,
  OrganizationId,
  ScimTokenId,
  SessionId,
  SubscriptionId,
  WebhookId
} from "../model/ids.ts"

/** Globally unique string ids, safe to allocate on any instance without coordination. */
export class IdGenerator extends Context.Service<
  IdGenerator,
  {
    readonly memberId: Effect.Effect<MemberId>
    readonly organizationId: Effect.Effect<OrganizationId>
    readonly subscriptionId: Effect.Effect<SubscriptionId>
    /** Ordered by the time this instance made them, like subscription ids. */
    readonly auditEntryId: Effect.Effect<AuditEntryId>
    readonly invitationId: Effect.Effect<InvitationId>
    readonly scimTokenId: Effect.Effect<ScimTokenId>
    readonly apiKeyId: Effect.Effect<ApiKeyId>
    readonly sessionId: Effect.Effect<SessionId>
    readonly webhookId: Effect.Effect<WebhookId>
    readonly deliveryId: Effect.Effect<DeliveryId>
    /** An event that no audit entry announces (a test). */
    readonly eventId: Effect.Effect<EventId>
  }
>()("roster/core/ports/IdGenerator") {}
