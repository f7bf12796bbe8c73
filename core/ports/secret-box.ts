import { Context, type Effect, type Redacted } from "effect"
import type { SealedSecret } from "../model/mfa.ts"

/**
 * Keeps secrets Roster must read back (a TOTP secret) encrypted at rest. `sealing` says whether it
 * has a key: without one, what it seals is kept as it is, which a deployment with a master key
 * must not accept (see `SecretsKeyRequired`). A sealed secret it cannot open (its key was taken
 * away) is a defect: the operator keeps every key that sealed something still stored.
 */
export class SecretBox extends Context.Service<
  SecretBox,
  {
    readonly sealing: boolean
    readonly seal: (secret: Redacted.Redacted<string>) => Effect.Effect<SealedSecret>
    readonly open: (sealed: SealedSecret) => Effect.Effect<Redacted.Redacted<string>>
  }
>()("roster/core/ports/SecretBox") {}
