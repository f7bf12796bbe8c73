import { AuditEntryId } from "./audit.ts"
import {
  AccessTokenId,
  ApiKeyId,
  DeliveryId,
  DomainId,
  EventId,
  InvitationId,
  MemberId,
  OrganizationId,
  ScimTokenId,
  SessionId,
  SsoConnectionId,
  SubscriptionId,
  WebhookId
} from "./ids.ts"

/**
 * Every kind of id Roster makes, its brand beside the prefix that tells it apart (a member's id is
 * a random UUID, as it always was): a new kind is one line here, and `IdGenerator.next` makes it.
 */
export const idKinds = {
  member: { brand: MemberId, prefix: undefined },
  organization: { brand: OrganizationId, prefix: "org_" },
  subscription: { brand: SubscriptionId, prefix: "sub_" },
  auditEntry: { brand: AuditEntryId, prefix: "aud_" },
  invitation: { brand: InvitationId, prefix: "inv_" },
  scimToken: { brand: ScimTokenId, prefix: "scim_" },
  apiKey: { brand: ApiKeyId, prefix: "key_" },
  session: { brand: SessionId, prefix: "ses_" },
  webhook: { brand: WebhookId, prefix: "whk_" },
  delivery: { brand: DeliveryId, prefix: "dlv_" },
  event: { brand: EventId, prefix: "evt_" },
  domain: { brand: DomainId, prefix: "dom_" },
  ssoConnection: { brand: SsoConnectionId, prefix: "sso_" },
  accessToken: { brand: AccessTokenId, prefix: "at_" }
} as const

export type IdKind = keyof typeof idKinds

/** The branded id of a kind. */
export type IdOf<K extends IdKind> = (typeof idKinds)[K]["brand"]["Type"]
