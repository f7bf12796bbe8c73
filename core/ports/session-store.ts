import { Context, type Effect, type Option } from "effect"
import type { StoreUnavailable } from "../model/errors.ts"
import type { MemberId, TokenHash } from "../model/ids.ts"
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
    /** Stamps a session with its member's new epoch, so that it alone outlives the increment. */
    readonly carryOver: (tokenHash: TokenHash, memberEpoch: number) => Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/SessionStore") {}
