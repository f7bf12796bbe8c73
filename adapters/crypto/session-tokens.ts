import { hash, randomBytes, timingSafeEqual } from "node:crypto"
import { Effect, Layer, Redacted } from "effect"
import { SessionTokens, TokenHash } from "../../core/index.ts"

/** 256 random bits, url-safe; prefixed so a leaked token is recognisable in secret scanners. */
const tokenBytes = 32
const prefix = "rst_"

// One call, no Hash object: every authenticated request hashes its token.
export const hashToken = (token: string): TokenHash => TokenHash.make(hash("sha256", token, "hex"))

export const sessionTokensLayer = Layer.succeed(
  SessionTokens,
  SessionTokens.of({
    issue: Effect.sync(() => {
      const token = `${prefix}${randomBytes(tokenBytes).toString("base64url")}`
      return { token: Redacted.make(token), hash: hashToken(token) }
    }),
    hashOf: (token) => Effect.sync(() => hashToken(Redacted.value(token))),
    sameHash: (a, b) =>
      Effect.sync(
        () => a.length === b.length && timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(b, "hex"))
      )
  })
)
