import { type DateTime, Schema } from "effect"
import { EventType } from "./event-catalog.ts"
import { DeliveryId, EventId, OrganizationId, WebhookId } from "./ids.ts"
import { cursorOf } from "./page.ts"
import type { WebhookRecord } from "./webhook.ts"

/**
 * `pending`: not tried yet, or sent again by hand; `failed`: its last try failed and another is
 * due; `succeeded`; `exhausted`: every try failed, or its endpoint answered 410 Gone.
 */
export const DeliveryStatus = Schema.Literals(["pending", "succeeded", "failed", "exhausted"])
export type DeliveryStatus = typeof DeliveryStatus.Type

/** One event's delivery to one endpoint, as shown. */
export class Delivery extends Schema.Class<Delivery>("roster/Delivery")({
  id: DeliveryId,
  eventId: EventId,
  type: EventType,
  attempts: Schema.Int,
  status: DeliveryStatus,
  lastStatusCode: Schema.optionalKey(Schema.Int),
  lastError: Schema.optionalKey(Schema.String),
  /** The last answer's first kilobyte, for an administrator finding out why. */
  lastResponse: Schema.optionalKey(Schema.String),
  nextAttemptAt: Schema.optionalKey(Schema.DateTimeUtc),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class DeliveryRecord extends Schema.Class<DeliveryRecord>("roster/DeliveryRecord")({
  ...Delivery.fields,
  webhookId: WebhookId,
  organizationId: OrganizationId,
  /** The message's body, the same on every attempt. */
  body: Schema.String,
  /** While an instance is trying it: what proves its claim, and until when the claim holds. */
  claim: Schema.optionalKey(Schema.String),
  leaseUntil: Schema.optionalKey(Schema.DateTimeUtc)
}) {}

export const toDelivery = ({
  webhookId: _w,
  organizationId: _o,
  body: _b,
  claim: _c,
  leaseUntil: _l,
  ...fields
}: DeliveryRecord) =>
  new Delivery(
    fields,
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: checking a checked record again changes its cost, never its result
    { disableChecks: true }
  )

/** A new delivery of an event to an endpoint, due now. */
export const pendingDelivery = (
  fields: Pick<DeliveryRecord, "id" | "eventId" | "type" | "webhookId" | "organizationId" | "body">,
  now: DateTime.Utc
) =>
  new DeliveryRecord(
    { ...fields, attempts: 0, status: "pending", nextAttemptAt: now, createdAt: now, updatedAt: now },
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: checking a checked record again changes its cost, never its result
    { disableChecks: true }
  )

/** A delivery as a try's outcome leaves it: what the last try said replaced, due again only if failed. */
/** A try's outcome written, its claim ended. */
export const settled = (record: DeliveryRecord, outcome: DeliveryOutcome, now: DateTime.Utc) => {
  const {
    nextAttemptAt: _,
    lastStatusCode: _code,
    lastError: _error,
    lastResponse: _response,
    claim: _claim,
    leaseUntil: _lease,
    ...kept
  } = record
  return new DeliveryRecord(
    { ...kept, ...outcome, updatedAt: now },
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: checking a checked record again changes its cost, never its result
    { disableChecks: true }
  )
}

/** A delivery made due now by hand, whatever it came to. */
export const retried = (record: DeliveryRecord, now: DateTime.Utc) =>
  new DeliveryRecord(
    { ...record, status: "pending", nextAttemptAt: now, updatedAt: now },
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: checking a checked record again changes its cost, never its result
    { disableChecks: true }
  )

/** A delivery an instance claimed to send, with its endpoint as it stood when claimed. */
export interface ClaimedDelivery {
  readonly delivery: DeliveryRecord
  readonly webhook: WebhookRecord
  /** What proves the claim is still this instance's when the outcome is written. */
  readonly claim: string
}

/** What a try ended with, as the store writes it. */
export interface DeliveryOutcome {
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly lastStatusCode?: number
  readonly lastError?: string
  readonly lastResponse?: string
  readonly nextAttemptAt?: DateTime.Utc
}

export const DeliveryPosition = Schema.Struct({ createdAt: Schema.DateTimeUtcFromMillis, id: DeliveryId })
export type DeliveryPosition = typeof DeliveryPosition.Type
export const DeliveryCursor = cursorOf(DeliveryPosition)
