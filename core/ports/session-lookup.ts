import { Context, type Effect, type Option } from "effect"
import type { StoreUnavailable } from "../model/errors.ts"
import type { PermissionId, TokenHash } from "../model/ids.ts"
import type { MemberRecord } from "../model/member.ts"
import type { RoleStanding } from "../model/role.ts"
import type { Session } from "../model/session.ts"

/** A session with all that authenticating it needs, as stored now, and nothing more. */
export interface SessionWithMember {
  readonly session: Session
  /** The session's member in the session's organisation. */
  readonly member: MemberRecord
  /** Whether the member's role is active; none when it is gone. */
  readonly role: RoleStanding | undefined
  /** What the role holds; none when it has no permission record. */
  readonly permissionIds: ReadonlyArray<PermissionId>
}

/**
 * A session found by its token's hash, read together with its member, the member's role and the
 * role's permissions, in as few reads as the store allows (one on SQLite): every authenticated
 * request asks it. None when no session has the hash, or its member is no longer one of the
 * session's organisation.
 */
export class SessionLookup extends Context.Service<
  SessionLookup,
  {
    readonly find: (tokenHash: TokenHash) => Effect.Effect<Option.Option<SessionWithMember>, StoreUnavailable>
  }
>()("roster/core/ports/SessionLookup") {}
