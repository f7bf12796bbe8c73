import { Context, type Effect } from "effect"
import type { StoreUnavailable } from "../model/errors.ts"
import type { SealedSecret } from "../model/mfa.ts"

/** A record's sealed secrets, and where it is: `place` names the record, stable across reads. */
export interface SealedSecretsOf {
  readonly place: string
  readonly sealed: ReadonlyArray<SealedSecret>
}

/**
 * Every secret the store keeps sealed (TOTP secrets, webhooks' signing secrets, SSO client
 * secrets), record by record in an order that never changes, so that they can be sealed again
 * under a new key. Each reseal is one atomic write of its record.
 */
export class SealedSecrets extends Context.Service<
  SealedSecrets,
  {
    /** At most `limit` records holding sealed secrets, after the one at `after`. */
    readonly page: (
      after: string | undefined,
      limit: number
    ) => Effect.Effect<ReadonlyArray<SealedSecretsOf>, StoreUnavailable>
    /** Puts `to` in the place of `from` in the record at `place`, if `from` is still there; answers whether it was. */
    readonly reseal: (
      place: string,
      from: SealedSecret,
      to: SealedSecret
    ) => Effect.Effect<boolean, StoreUnavailable>
  }
>()("roster/core/ports/SealedSecrets") {}
