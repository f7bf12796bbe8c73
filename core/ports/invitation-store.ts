import { Context, type DateTime, type Effect, type Option } from "effect"
import type { AuditEntry } from "../model/audit.ts"
import type { StoreUnavailable } from "../model/errors.ts"
import type { InvitationId, TokenHash } from "../model/ids.ts"
import type { Invitation, InvitationQuery } from "../model/invitation.ts"

/**
 * Invitations. Reads and changes by id name the current organisation; a token finds its invitation
 * wherever it is. At most one invitation per e-mail is pending in an organisation, whatever the
 * number of instances.
 */
export class InvitationStore extends Context.Service<
  InvitationStore,
  {
    /** Stores the invitation in place of a pending one (expired or not) for the same e-mail. */
    readonly replace: (invitation: Invitation, entry?: AuditEntry) => Effect.Effect<void, StoreUnavailable>
    readonly findById: (id: InvitationId) => Effect.Effect<Option.Option<Invitation>, StoreUnavailable>
    readonly findByTokenHash: (
      tokenHash: TokenHash
    ) => Effect.Effect<Option.Option<Invitation>, StoreUnavailable>
    /** At most `limit` invitations matching the query, oldest first. */
    readonly page: (
      query: InvitationQuery,
      limit: number
    ) => Effect.Effect<ReadonlyArray<Invitation>, StoreUnavailable>
    /** Marks a pending invitation revoked; answers it as it is after, none when there is none. */
    readonly revoke: (
      id: InvitationId,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<Invitation>, StoreUnavailable>
    /**
     * Marks accepted the pending invitation of the token, while it is not expired at `now`: one
     * claim wins, whatever the number of instances. None when there is no such invitation.
     */
    readonly claim: (
      tokenHash: TokenHash,
      now: DateTime.Utc,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<Invitation>, StoreUnavailable>
    /** Deletes every invitation of the organisation (it is being deleted). */
    readonly removeAll: Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/InvitationStore") {}
