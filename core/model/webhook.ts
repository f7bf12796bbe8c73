import { Schema } from "effect"
import { AuditActor } from "./audit.ts"
import { EventType, eventCatalog } from "./event-catalog.ts"
import { OrganizationId, WebhookId } from "./ids.ts"
import { SealedSecret } from "./mfa.ts"
import { cursorOf } from "./page.ts"
import { permissionIdOf } from "./permission.ts"
import type { PermissionSet } from "./permission-set.ts"
import { inNfc, isDisplayable } from "./text.ts"

/** An organisation holds at most this many endpoints. */
export const maxWebhooks = 20

/**
 * Where events are posted: an absolute `http(s)` URL, its host a name or an IP address, without
 * credentials or spaces. Whether it may be sent to (`https`, a public address) is the sender's to
 * say (`WebhookSender.checkDestination`).
 */
export const WebhookUrl = Schema.String.check(
  Schema.isMaxLength(2048),
  Schema.isPattern(
    /^https?:\/\/(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(:\d{1,5})?([/?#]\S*)?$/,
    {
      description: "An absolute https URL without credentials"
    }
  )
).annotate({ format: "uri" })

/** The event types an endpoint is sent: some of the catalog's, or `*` alone for all. */
export const WebhookEvents = Schema.Array(Schema.Union([Schema.Literal("*"), EventType])).check(
  Schema.isMinLength(1),
  Schema.isMaxLength(50),
  Schema.makeFilter(
    (events: ReadonlyArray<string>) =>
      events.length === 1 || !events.includes("*") ? undefined : 'Expected ["*"] alone, or event types',
    { description: '["*"] alone, or event types' }
  )
)
export type WebhookEvents = typeof WebhookEvents.Type

export const WebhookDescription = inNfc(
  Schema.String.check(Schema.isTrimmed(), Schema.isMaxLength(500), isDisplayable)
)

/**
 * An endpoint as it is stored and listed: never its secret. `createdBy` is whose reading it hears
 * with (absent on endpoints made before it was kept: they hear as the operator's did).
 */
export class Webhook extends Schema.Class<Webhook>("roster/Webhook")({
  id: WebhookId,
  url: Schema.String,
  events: WebhookEvents,
  enabled: Schema.Boolean,
  description: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtc,
  createdBy: Schema.optionalKey(AuditActor)
}) {}

/** An endpoint as it is shown: with the event types it is sent now, which its creator may read. */
export class WebhookView extends Schema.Class<WebhookView>("roster/WebhookView")({
  ...Webhook.fields,
  effectiveEvents: Schema.Array(EventType).annotate({
    description:
      "The types this endpoint is sent now: those of `events` that its creator may read through the API (`*` stands for all of those)"
  })
}) {}

/** Whether whoever holds `held` may read what an event of `type` carries. */
export const mayHear = (held: PermissionSet, type: EventType): boolean =>
  held.has(permissionIdOf(eventCatalog[type].readableWith))

/** The event types an endpoint taking `events` is sent, its creator holding `held`. */
export const heardTypes = (events: WebhookEvents, held: PermissionSet): ReadonlyArray<EventType> =>
  EventType.literals.filter((type) => subscribesTo(events, type) && mayHear(held, type))

/** The secret a rotation replaced, which still signs until `until`. */
export const PreviousSigningSecret = Schema.Struct({ secret: SealedSecret, until: Schema.DateTimeUtc })
export type PreviousSigningSecret = typeof PreviousSigningSecret.Type

// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class WebhookRecord extends Schema.Class<WebhookRecord>("roster/WebhookRecord")({
  ...Webhook.fields,
  organizationId: OrganizationId,
  secret: SealedSecret,
  previous: Schema.NullOr(PreviousSigningSecret),
  /** When its deliveries began to fail without a success since; none while they succeed. */
  failingSince: Schema.NullOr(Schema.DateTimeUtc)
}) {}

export const toWebhook = (record: WebhookRecord): Webhook =>
  new Webhook(
    {
      id: record.id,
      url: record.url,
      events: record.events,
      enabled: record.enabled,
      description: record.description,
      createdAt: record.createdAt,
      ...(record.createdBy === undefined ? {} : { createdBy: record.createdBy })
    },
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: checking a checked record again changes its cost, never its result
    { disableChecks: true }
  )

/** Whether an endpoint is sent events of `type`. */
export const subscribesTo = (events: WebhookEvents, type: EventType): boolean =>
  events[0] === "*" || events.includes(type)

export const WebhookPosition = Schema.Struct({ createdAt: Schema.DateTimeUtcFromMillis, id: WebhookId })
export type WebhookPosition = typeof WebhookPosition.Type
export const WebhookCursor = cursorOf(WebhookPosition)
