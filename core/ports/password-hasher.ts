import { Context, type Effect, type Redacted } from "effect"

/** A slow, salted password hash. Implementations must not block the event loop. */
export class PasswordHasher extends Context.Service<
  PasswordHasher,
  {
    readonly hash: (password: Redacted.Redacted<string>) => Effect.Effect<string>
    readonly verify: (hash: string, password: Redacted.Redacted<string>) => Effect.Effect<boolean>
  }
>()("roster/core/ports/PasswordHasher") {}
