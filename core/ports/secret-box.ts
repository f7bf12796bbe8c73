import { Context, type Effect, type Redacted } from "effect"
import type { SecretUnreadable } from "../model/errors.ts"
import type { SealedSecret } from "../model/mfa.ts"

/**
 * Keeps secrets Roster must read back (a TOTP secret, a webhook's signing secret) encrypted at
 * rest. `sealing` says whether it has a key: without one, what it seals is kept as it is, which a
 * deployment with a master key must not accept (see `SecretsKeyRequired`). A sealed secret that no
 * key it holds opens (its key was taken away before it was sealed again) fails `SecretUnreadable`.
 * `sealedUnderFirst` says whether a sealed secret is sealed the way `seal` seals now, so that
 * rotating the key seals again only what needs it.
 */
export class SecretBox extends Context.Service<
  SecretBox,
  {
    readonly sealing: boolean
    readonly seal: (secret: Redacted.Redacted<string>) => Effect.Effect<SealedSecret>
    readonly open: (sealed: SealedSecret) => Effect.Effect<Redacted.Redacted<string>, SecretUnreadable>
    readonly sealedUnderFirst: (sealed: SealedSecret) => boolean
  }
>()("roster/core/ports/SecretBox") {}
