import { Context, type Effect, type Option } from "effect"
import type { AuditEntry } from "../model/audit.ts"
import type { StoreUnavailable } from "../model/errors.ts"
import type { MemberId, SsoConnectionId, TokenHash } from "../model/ids.ts"
import type { ProvenIdentity, SpentAssertion, SsoIdentity, SsoLogin } from "../model/sso-login.ts"

/**
 * Sign-ins under way, the assertions accepted, and the identities linked to accounts. Each
 * operation is one atomic read or write of the store, whatever the number of instances: of two
 * uses of one state or one assertion, exactly one succeeds. Stores may forget what has expired.
 */
export class SsoLoginStore extends Context.Service<
  SsoLoginStore,
  {
    readonly begin: (login: SsoLogin) => Effect.Effect<void, StoreUnavailable>
    readonly find: (stateHash: TokenHash) => Effect.Effect<Option.Option<SsoLogin>, StoreUnavailable>
    /** Deletes the sign-in and answers it: used once. */
    readonly take: (stateHash: TokenHash) => Effect.Effect<Option.Option<SsoLogin>, StoreUnavailable>
    /** Records whom the provider proved for a sign-in not proven yet; none when there is none such. */
    readonly prove: (
      stateHash: TokenHash,
      proven: ProvenIdentity
    ) => Effect.Effect<Option.Option<SsoLogin>, StoreUnavailable>
    /** Keeps the assertion; false when the connection accepted it already. */
    readonly spend: (assertion: SpentAssertion) => Effect.Effect<boolean, StoreUnavailable>
    readonly findIdentity: (
      connectionId: SsoConnectionId,
      subject: string
    ) => Effect.Effect<Option.Option<SsoIdentity>, StoreUnavailable>
    /**
     * Links the identity to its account, `entry` written with it, in one atomic write; false,
     * writing nothing, when the identity is linked to another account: a link is never moved.
     */
    readonly link: (identity: SsoIdentity, entry?: AuditEntry) => Effect.Effect<boolean, StoreUnavailable>
    /** The accounts identities at `connectionId` are linked to. */
    readonly linkedAccounts: (
      connectionId: SsoConnectionId
    ) => Effect.Effect<ReadonlyArray<MemberId>, StoreUnavailable>
    /** Forgets the account's identities at `connectionId`, so that it is linked afresh. */
    readonly unlinkAccount: (
      connectionId: SsoConnectionId,
      accountId: MemberId
    ) => Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/SsoLoginStore") {}
