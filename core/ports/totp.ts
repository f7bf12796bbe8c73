import { Context, type DateTime, type Effect, type Option, type Redacted } from "effect"

/** Time-based one-time passwords (RFC 6238: SHA-1, 6 digits, 30-second steps). */
export class Totp extends Context.Service<
  Totp,
  {
    /** A new random secret (160 bits), in base32 as authenticator apps take it. */
    readonly newSecret: Effect.Effect<Redacted.Redacted<string>>
    /** The `otpauth://` URI an authenticator app reads (from a QR code) to hold `secret`. */
    readonly uriOf: (secret: Redacted.Redacted<string>, account: string) => string
    /** The time step `code` is right for at `now`, within one step either way; none when it is wrong. */
    readonly stepOf: (
      secret: Redacted.Redacted<string>,
      code: string,
      now: DateTime.Utc
    ) => Effect.Effect<Option.Option<number>>
  }
>()("roster/core/ports/Totp") {}
