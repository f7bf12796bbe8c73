import { Context, type Effect, type Redacted } from "effect"
import type { DestinationRefused } from "../model/errors.ts"

/** A message to post: signed with each secret, its body and id the same on every try. */
export interface OutboundMessage {
  readonly url: string
  readonly id: string
  readonly body: string
  readonly secrets: ReadonlyArray<Redacted.Redacted<string>>
}

/** How a try ended: the receiver's answer, or why there was none. */
export interface SendResult {
  readonly statusCode?: number
  /** Seconds the receiver asked to wait (`Retry-After` on 429 or 503). */
  readonly retryAfter?: number
  /** The answer's first kilobyte. */
  readonly response?: string
  /** Why no answer came: a refused address, a timeout, a connection that failed. */
  readonly error?: string
}

/** Posts signed events to endpoints, and says which URLs may be posted to. */
export class WebhookSender extends Context.Service<
  WebhookSender,
  {
    /** Refuses a URL that may never be sent to (see `DestinationRefused`). */
    readonly checkDestination: (url: string) => Effect.Effect<void, DestinationRefused>
    readonly send: (message: OutboundMessage) => Effect.Effect<SendResult>
  }
>()("roster/core/ports/WebhookSender") {}
