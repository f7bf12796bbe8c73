import { Effect, Layer, Option, Redacted } from "effect"
import { Secret, TOTP } from "otpauth"
import { Totp } from "../../core/index.ts"

const issuer = "Roster"

const totpOf = (secret: Redacted.Redacted<string>, label = "") =>
  new TOTP({
    issuer,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(Redacted.value(secret))
  })

/** RFC 6238 by otpauth: SHA-1, 6 digits, 30-second steps, one step of drift either way. */
export const totpLayer = Layer.succeed(
  Totp,
  Totp.of({
    newSecret: Effect.sync(() => Redacted.make(new Secret({ size: 20 }).base32)),
    uriOf: (secret, account) => totpOf(secret, account).toString(),
    stepOf: (secret, code, now) =>
      Effect.sync(() => {
        if (!/^\d{6}$/u.test(code)) return Option.none()
        const timestamp = now.epochMilliseconds
        const delta = totpOf(secret).validate({ token: code, timestamp, window: 1 })
        return delta === null ? Option.none() : Option.some(Math.floor(timestamp / 30_000) + delta)
      })
  })
)
