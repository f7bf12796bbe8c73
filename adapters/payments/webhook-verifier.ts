import { Context, type Effect, Schema } from "effect"

export class SignatureRejected extends Schema.TaggedError<SignatureRejected>()("SignatureRejected", {
  reason: Schema.Literals(["missing", "invalid", "not_configured"])
}) {}

/** Proves a webhook delivery came from the provider, over its raw bytes, before anything reads it. */
export class WebhookVerifier extends Context.Service<
  WebhookVerifier,
  {
    readonly verify: (
      rawBody: string,
      headers: Readonly<Record<string, string | undefined>>
    ) => Effect.Effect<void, SignatureRejected>
  }
>()("roster/payments/WebhookVerifier") {}
