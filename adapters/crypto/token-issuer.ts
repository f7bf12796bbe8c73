import { hash, randomBytes } from "node:crypto"
import { Effect, Layer, Redacted } from "effect"
import { ApiKeyLookup, TokenHash, TokenIssuer, type TokenKind } from "../../core/index.ts"

/** 256 random bits, url-safe. */
const tokenBytes = 32

/**
 * Each kind's prefix: a leaked token is recognisable in secret scanners, and says what it opens. A
 * random password (never shown) is prefixed like any other token.
 */
export const tokenPrefixes: Readonly<Record<TokenKind, string>> = {
  session: "rss_",
  invitation: "rsi_",
  scim: "rsc_",
  password: "rsp_",
  reset: "rsr_",
  verification: "rsv_",
  email_change: "rse_",
  challenge: "rsm_",
  domain: "rsd_",
  sso_state: "rsq_",
  sso_binding: "rsb_",
  sso_code: "rso_"
}

// One call, no Hash object: every authenticated request hashes its token.
export const hashToken = (token: string): TokenHash => TokenHash.make(hash("sha256", token, "hex"))

/**
 * Whether two digests' texts are equal, in time that does not depend on where they differ (only on
 * their length, which is public). Every session's request compares its digest with the master
 * key's: decoding both from hex into buffers for `timingSafeEqual` cost it ~1.5 µs.
 */
const sameText = (a: string, b: string) => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}

export const tokenIssuerLayer = Layer.succeed(
  TokenIssuer,
  TokenIssuer.of({
    issue: (kind) =>
      Effect.sync(() => {
        const token = `${tokenPrefixes[kind]}${randomBytes(tokenBytes).toString("base64url")}`
        return { token: Redacted.make(token), hash: hashToken(token) }
      }),
    issueApiKey: (lookup) =>
      Effect.sync(() => {
        const part = lookup ?? ApiKeyLookup.make(randomBytes(8).toString("hex"))
        const secret = randomBytes(tokenBytes).toString("base64url")
        return { key: Redacted.make(`rk_${part}_${secret}`), lookup: part, secretHash: hashToken(secret) }
      }),
    issueSigningSecret: Effect.sync(() => Redacted.make(`whsec_${randomBytes(32).toString("base64")}`)),
    hashOf: (token) => Effect.sync(() => hashToken(Redacted.value(token))),
    sameHash: (a, b) => Effect.sync(() => sameText(a, b))
  })
)
