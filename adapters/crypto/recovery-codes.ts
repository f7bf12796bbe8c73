import { createHmac, randomBytes, scrypt } from "node:crypto"
import { Effect, Layer, Redacted } from "effect"
import { normalRecoveryCode, RecoveryCodes, TokenHash } from "../../core/index.ts"
import { hashToken } from "./token-issuer.ts"

/** Letters and digits a person does not misread (RFC 4648's base32 alphabet, lower case): 5 bits each. */
const alphabet = "abcdefghijklmnopqrstuvwxyz234567"

/** 80 random bits as 16 base32 letters, in four groups of four. */
const newCode = () => {
  let bits = 0n
  for (const byte of randomBytes(10)) bits = (bits << 8n) | BigInt(byte)
  const letters = Array.from({ length: 16 }, (_, i) => alphabet[Number((bits >> BigInt(75 - 5 * i)) & 31n)])
  return [0, 4, 8, 12].map((start) => letters.slice(start, start + 4).join("")).join("-")
}

/** The length of codes issued before they carried 80 bits: kept as an unkeyed SHA-256 of the code. */
const earlierLength = 10

const keyed = (key: Redacted.Redacted<string>, label: string, code: string) =>
  createHmac("sha256", Redacted.value(key)).update(`roster recovery code v2 ${label}\0${code}`).digest()

/** scrypt at a cost that a login's guess pays once, and an offline guesser for every code. */
const slowDigest = (key: Redacted.Redacted<string>, code: string) =>
  Effect.promise(
    () =>
      new Promise<TokenHash>((resolve, reject) =>
        scrypt(
          code,
          keyed(key, "salt", ""),
          32,
          { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 },
          (error, bytes) => (error === null ? resolve(TokenHash.make(bytes.toString("hex"))) : reject(error))
        )
      )
  )

/**
 * Recovery codes digested with HMAC-SHA-256 keyed by the account's TOTP secret, which is itself
 * sealed under `ROSTER_SECRETS_KEY` (so rotating that key leaves every digest valid). Where secrets
 * are not sealed (`slow`: open local mode without a key), the secret is no key at all, and the
 * digest is scrypt salted by it. Codes issued before (ten letters, an unkeyed digest) still work
 * until used or replaced.
 */
export const recoveryCodesLayer = (options: { readonly slow: boolean }) => {
  const digestOf = (key: Redacted.Redacted<string>, typed: string): Effect.Effect<TokenHash> => {
    const code = normalRecoveryCode(typed)
    if (code.length === earlierLength) return Effect.succeed(hashToken(code))
    return options.slow
      ? slowDigest(key, code)
      : Effect.succeed(TokenHash.make(keyed(key, "digest", code).toString("hex")))
  }
  return Layer.succeed(
    RecoveryCodes,
    RecoveryCodes.of({
      issue: (key) =>
        Effect.suspend(() => {
          const code = newCode()
          return Effect.map(digestOf(key, code), (digest) => ({ code: Redacted.make(code), digest }))
        }),
      digestOf
    })
  )
}
