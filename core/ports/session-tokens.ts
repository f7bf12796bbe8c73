import { Context, type Effect, type Redacted } from "effect"
import type { TokenHash } from "../model/ids.ts"

/**
 * What a bearer token is for. Each kind reads differently (its own prefix, say), so that a person or
 * a secret scanner who finds one can tell what it opens.
 */
export type TokenKind = "session" | "invitation" | "scim" | "password"

/** Bearer tokens: at least 128 random bits, known to the store only by their hash. */
export class SessionTokens extends Context.Service<
  SessionTokens,
  {
    readonly issue: (
      kind: TokenKind
    ) => Effect.Effect<{ readonly token: Redacted.Redacted<string>; readonly hash: TokenHash }>
    readonly hashOf: (token: Redacted.Redacted<string>) => Effect.Effect<TokenHash>
    /** Compares two hashes in constant time, so the comparison tells nothing of where they differ. */
    readonly sameHash: (a: TokenHash, b: TokenHash) => Effect.Effect<boolean>
  }
>()("roster/core/ports/SessionTokens") {}
