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
    readonly revokeAllOf: (memberId: MemberId) => Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/SessionStore") {}
