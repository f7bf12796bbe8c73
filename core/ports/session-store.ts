import { Context, type DateTime, type Effect, type Option } from "effect"
import type { StoreUnavailable } from "../model/errors.ts"
import type { MemberId, OrganizationId, SessionId, TokenHash } from "../model/ids.ts"
import type { Session } from "../model/session.ts"

/** Sessions keyed by the hash of their token; stores may drop them once expired. */
export class SessionStore extends Context.Service<
  SessionStore,
  {
    readonly create: (session: Session) => Effect.Effect<void, StoreUnavailable>
    readonly find: (tokenHash: TokenHash) => Effect.Effect<Option.Option<Session>, StoreUnavailable>
    readonly revoke: (tokenHash: TokenHash) => Effect.Effect<boolean, StoreUnavailable>
    /** Deletes every session of the account in every organisation, but `except` when given. */
    readonly revokeAllOf: (memberId: MemberId, except?: TokenHash) => Effect.Effect<void, StoreUnavailable>
    /** Deletes the member's sessions in the current organisation only: a membership's change. */
    readonly revokeMembership: (memberId: MemberId) => Effect.Effect<void, StoreUnavailable>
    /** Every session of the account, in every organisation, oldest first; expired ones may be among them. */
    readonly listOf: (memberId: MemberId) => Effect.Effect<ReadonlyArray<Session>, StoreUnavailable>
    /** Deletes the account's session named `id`, answering it; none when the account has no such session. */
    readonly revokeById: (
      memberId: MemberId,
      id: SessionId
    ) => Effect.Effect<Option.Option<Session>, StoreUnavailable>
    /** Sets the session's `lastSeenAt` to `minute`, only if it is earlier: two instances write it once. */
    readonly noteSeen: (tokenHash: TokenHash, minute: DateTime.Utc) => Effect.Effect<void, StoreUnavailable>
    /**
     * Sets `mfaPending` on the sessions of the organisation (of `only` that account, when given),
     * but those of the accounts in `except`.
     */
    readonly setMfaPending: (
      organizationId: OrganizationId,
      pending: boolean,
      scope: { readonly only?: MemberId; readonly except?: ReadonlyArray<MemberId> }
    ) => Effect.Effect<void, StoreUnavailable>
    /** Lifts `mfaPending` from every session of the account: it has TOTP now. */
    readonly clearMfaPending: (memberId: MemberId) => Effect.Effect<void, StoreUnavailable>
    /** Stamps a session with its member's new epoch, so that it alone outlives the increment. */
    readonly carryOver: (tokenHash: TokenHash, memberEpoch: number) => Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/SessionStore") {}
