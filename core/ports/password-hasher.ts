import { Context, type Effect, type Redacted } from "effect"
import type { HashingBusy } from "../model/errors.ts"

/**
 * A slow, salted password hash. Implementations must not block the event loop, and bound how many
 * hashes run at once (refusing the excess with `HashingBusy`) so hashing never starves other work.
 */
export class PasswordHasher extends Context.Service<
  PasswordHasher,
  {
    readonly hash: (password: Redacted.Redacted<string>) => Effect.Effect<string, HashingBusy>
    readonly verify: (
      hash: string,
      password: Redacted.Redacted<string>
    ) => Effect.Effect<boolean, HashingBusy>
  }
>()("roster/core/ports/PasswordHasher") {}
