import { Schema } from "effect"
import { EventType } from "./event-catalog.ts"
import { OrganizationId, WebhookId } from "./ids.ts"
import { SealedSecret } from "./mfa.ts"
import { cursorOf } from "./page.ts"
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

/** An endpoint as it is shown: never its secret. */
export class Webhook extends Schema.Class<Webhook>("roster/Webhook")({
  id: WebhookId,
  url: Schema.String,
  events: WebhookEvents,
  enabled: Schema.Boolean,
  description: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtc
}) {}

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
      createdAt: record.createdAt
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
