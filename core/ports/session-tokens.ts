import { Context, type Effect, type Redacted } from "effect"
import type { TokenHash } from "../model/ids.ts"

/** Bearer tokens: at least 128 random bits, known to the store only by their hash. */
export class SessionTokens extends Context.Service<
  SessionTokens,
  {
    readonly issue: Effect.Effect<{ readonly token: Redacted.Redacted<string>; readonly hash: TokenHash }>
    readonly hashOf: (token: Redacted.Redacted<string>) => Effect.Effect<TokenHash>
    /** Compares two hashes in constant time, so the comparison tells nothing of where they differ. */
    readonly sameHash: (a: TokenHash, b: TokenHash) => Effect.Effect<boolean>
  }
>()("roster/core/ports/SessionTokens") {}
