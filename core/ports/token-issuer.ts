import { Context, type Effect, type Redacted } from "effect"
import type { ApiKeyLookup } from "../model/api-key.ts"
import type { TokenHash } from "../model/ids.ts"

/**
 * What a bearer token is for. Each kind reads differently (its own prefix, say), so that a person or
 * a secret scanner who finds one can tell what it opens.
 */
export type TokenKind =
  | "session"
  | "invitation"
  | "scim"
  | "password"
  | "reset"
  | "verification"
  | "email_change"
  | "challenge"
  | "domain"
  | "sso_state"
  | "sso_binding"
  | "sso_code"

/**
 * Every secret Roster issues to someone: bearer tokens of each kind (sessions, invitations, SCIM,
 * mailed links, challenges), API keys and webhook signing secrets; each at least 128 random bits,
 * known to the store only by its digest (a signing secret, which must be read back, is sealed).
 */
export class TokenIssuer extends Context.Service<
  TokenIssuer,
  {
    readonly issue: (
      kind: TokenKind
    ) => Effect.Effect<{ readonly token: Redacted.Redacted<string>; readonly hash: TokenHash }>
    /**
     * A new API key (`rk_`, its lookup part, `_`, its secret), with its lookup part and its secret's
     * hash: a new lookup part, or `lookup` again for a key rotated to a new secret.
     */
    readonly issueApiKey: (lookup?: ApiKeyLookup) => Effect.Effect<{
      readonly key: Redacted.Redacted<string>
      readonly lookup: ApiKeyLookup
      readonly secretHash: TokenHash
    }>
    /** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
    readonly issueSigningSecret: Effect.Effect<Redacted.Redacted<string>>
    readonly hashOf: (token: Redacted.Redacted<string>) => Effect.Effect<TokenHash>
    /** Compares two hashes in constant time, so the comparison tells nothing of where they differ. */
    readonly sameHash: (a: TokenHash, b: TokenHash) => Effect.Effect<boolean>
  }
>()("roster/core/ports/TokenIssuer") {}
