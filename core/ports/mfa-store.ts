import { Context, type Effect, type Option } from "effect"
import type { AuditEntry } from "../model/audit.ts"
import type { StoreUnavailable } from "../model/errors.ts"
import type { MemberId, TokenHash } from "../model/ids.ts"
import type { MfaRecord, SealedSecret } from "../model/mfa.ts"

/**
 * Accounts' second factors, across organisations. Every change is one atomic write of the store
 * (with its audit entry, when it has one), whatever the number of instances: a time step is taken
 * once, a recovery code used once, a confirmation made of the pending secret it read.
 */
export class MfaStore extends Context.Service<
  MfaStore,
  {
    readonly find: (accountId: MemberId) => Effect.Effect<Option.Option<MfaRecord>, StoreUnavailable>
    /** Keeps `pending` as the account's secret to confirm, replacing one enrolled before. */
    readonly enrol: (accountId: MemberId, pending: SealedSecret) => Effect.Effect<void, StoreUnavailable>
    /**
     * Makes `pending` the account's secret, taken at `step`, with new recovery codes: only while it
     * is still the pending one (false otherwise).
     */
    readonly confirm: (
      accountId: MemberId,
      pending: SealedSecret,
      step: number,
      recoveryCodes: ReadonlyArray<TokenHash>,
      entry: AuditEntry
    ) => Effect.Effect<boolean, StoreUnavailable>
    /** Takes `step` for the account's secret, only if it is later than the last taken (false otherwise). */
    readonly takeStep: (accountId: MemberId, step: number) => Effect.Effect<boolean, StoreUnavailable>
    /** Uses up the recovery code of that digest, if the account has it unused (false otherwise). */
    readonly useRecoveryCode: (
      accountId: MemberId,
      digest: TokenHash,
      entry: AuditEntry
    ) => Effect.Effect<boolean, StoreUnavailable>
    /** Replaces the recovery codes of an account whose TOTP is on (false when it is not). */
    readonly replaceRecoveryCodes: (
      accountId: MemberId,
      recoveryCodes: ReadonlyArray<TokenHash>,
      entry: AuditEntry
    ) => Effect.Effect<boolean, StoreUnavailable>
    /** Takes away the account's second factor, pending or on (false when it had none). */
    readonly remove: (accountId: MemberId, entry: AuditEntry) => Effect.Effect<boolean, StoreUnavailable>
  }
>()("roster/core/ports/MfaStore") {}
