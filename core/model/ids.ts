import { Schema } from "effect"

// Stryker disable StringLiteral: a brand's name exists for the type checker; no value at run time depends on it

/**
 * Stores allocate integer ids from 1, and the published schema says so (`minimum: 1`, which is what
 * generated examples and clients see), but any integer decodes: a client naming id 0 or -1 asks for
 * something that does not exist (404 or 422), which is not a malformed request (400).
 */
const IntegerId = Schema.Number.check(
  Schema.isInt({ toJsonSchema: () => ({ type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })
)
const OpaqueId = Schema.String.check(Schema.isBetweenLength(1, 128), Schema.isTrimmed())

/**
 * Organisation ids are opaque strings; the default organisation's is `default`, so data stored
 * before organisations existed moves into it without a lookup.
 */
export const OrganizationId = OpaqueId.pipe(Schema.brand("OrganizationId"))
export type OrganizationId = typeof OrganizationId.Type

export const MemberId = OpaqueId.pipe(Schema.brand("MemberId"))
export type MemberId = typeof MemberId.Type

export const RoleId = IntegerId.pipe(Schema.brand("RoleId"))
export type RoleId = typeof RoleId.Type

export const PermissionId = IntegerId.pipe(Schema.brand("PermissionId"))
export type PermissionId = typeof PermissionId.Type

export const RolePermissionDetailId = IntegerId.pipe(Schema.brand("RolePermissionDetailId"))
export type RolePermissionDetailId = typeof RolePermissionDetailId.Type

export const SubscriptionId = OpaqueId.pipe(Schema.brand("SubscriptionId"))
export type SubscriptionId = typeof SubscriptionId.Type

export const PlanId = OpaqueId.pipe(Schema.brand("PlanId"))
export type PlanId = typeof PlanId.Type

export const PaymentEventId = OpaqueId.pipe(Schema.brand("PaymentEventId"))
export type PaymentEventId = typeof PaymentEventId.Type

/** Hex digest of a session token; the token itself is never stored. */
export const TokenHash = Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/)).pipe(
  Schema.brand("TokenHash")
)
export type TokenHash = typeof TokenHash.Type

export const InvitationId = OpaqueId.pipe(Schema.brand("InvitationId"))
export type InvitationId = typeof InvitationId.Type

export const ScimTokenId = OpaqueId.pipe(Schema.brand("ScimTokenId"))
export type ScimTokenId = typeof ScimTokenId.Type

export const ApiKeyId = OpaqueId.pipe(Schema.brand("ApiKeyId"))
export type ApiKeyId = typeof ApiKeyId.Type

/** A session's public name, for its owner to list and end it by: never its token or the token's digest. */
export const SessionId = OpaqueId.pipe(Schema.brand("SessionId"))
export type SessionId = typeof SessionId.Type

/** An access token's `jti`: unique, so that a product may tell one token from another. */
export const AccessTokenId = OpaqueId.pipe(Schema.brand("AccessTokenId"))
export type AccessTokenId = typeof AccessTokenId.Type

export const WebhookId = OpaqueId.pipe(Schema.brand("WebhookId"))
export type WebhookId = typeof WebhookId.Type

export const DeliveryId = OpaqueId.pipe(Schema.brand("DeliveryId"))
export type DeliveryId = typeof DeliveryId.Type

/** An event's id: its `webhook-id`, the same on every attempt, by which receivers deduplicate. */
export const EventId = OpaqueId.pipe(Schema.brand("EventId"))
export type EventId = typeof EventId.Type

/** A domain an organisation claims, to prove by DNS. */
export const DomainId = OpaqueId.pipe(Schema.brand("DomainId"))
export type DomainId = typeof DomainId.Type

/** An organisation's connection to its identity provider (OIDC or SAML). */
export const SsoConnectionId = OpaqueId.pipe(Schema.brand("SsoConnectionId"))
export type SsoConnectionId = typeof SsoConnectionId.Type
