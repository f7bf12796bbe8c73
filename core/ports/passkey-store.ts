import { Context, type DateTime, type Effect, type Option } from "effect"
import type { AuditEntry } from "../model/audit.ts"
import type { PasskeyLimit, StoreUnavailable } from "../model/errors.ts"
import type { MemberId } from "../model/ids.ts"
import type { PasskeyCeremony, PasskeyChallenge, PasskeyId, PasskeyRecord } from "../model/passkey.ts"

/**
 * Accounts' passkeys and the WebAuthn challenges waiting for a response. An account holds at most
 * `maxPasskeys`, whatever the number of instances; a challenge is taken once; a credential's counter
 * only grows.
 */
export class PasskeyStore extends Context.Service<
  PasskeyStore,
  {
    /** Adds the passkey; `PasskeyLimit` when the account holds as many as it may; false when its credential is known. */
    readonly add: (
      passkey: PasskeyRecord,
      entry: AuditEntry
    ) => Effect.Effect<boolean, PasskeyLimit | StoreUnavailable>
    readonly ofAccount: (accountId: MemberId) => Effect.Effect<ReadonlyArray<PasskeyRecord>, StoreUnavailable>
    readonly find: (id: PasskeyId) => Effect.Effect<Option.Option<PasskeyRecord>, StoreUnavailable>
    readonly rename: (
      accountId: MemberId,
      id: PasskeyId,
      name: string
    ) => Effect.Effect<Option.Option<PasskeyRecord>, StoreUnavailable>
    readonly remove: (
      accountId: MemberId,
      id: PasskeyId,
      entry: AuditEntry
    ) => Effect.Effect<Option.Option<PasskeyRecord>, StoreUnavailable>
    /**
     * Records a use with the authenticator's new counter, only while the stored one is `was` (false
     * when another use came first: the caller reads again).
     */
    readonly noteUse: (
      id: PasskeyId,
      was: number,
      counter: number,
      at: DateTime.Utc
    ) => Effect.Effect<boolean, StoreUnavailable>
    /** Refuses the credential from now on (its counter went backwards: a clone), with `entry`. */
    readonly suspend: (id: PasskeyId, entry: AuditEntry) => Effect.Effect<void, StoreUnavailable>
    /** Keeps a challenge, in place of the owner's previous one of that ceremony. */
    readonly putChallenge: (challenge: PasskeyChallenge) => Effect.Effect<void, StoreUnavailable>
    /** Deletes the challenge and answers it: used once. */
    readonly takeChallenge: (
      ceremony: PasskeyCeremony,
      owner: string
    ) => Effect.Effect<Option.Option<PasskeyChallenge>, StoreUnavailable>
  }
>()("roster/core/ports/PasskeyStore") {}
