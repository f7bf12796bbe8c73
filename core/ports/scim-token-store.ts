import { Context, type Effect, type Option } from "effect"
import type { AuditEntry } from "../model/audit.ts"
import type { StoreUnavailable } from "../model/errors.ts"
import type { ScimTokenId, TokenHash } from "../model/ids.ts"
import type { ScimToken, ScimTokenRecord } from "../model/scim-token.ts"

/**
 * The organisations' SCIM tokens, known by their hashes. Listing and revoking name the current
 * organisation; a hash finds its token wherever it is. Each change is written with its audit entry.
 */
export class ScimTokenStore extends Context.Service<
  ScimTokenStore,
  {
    readonly insert: (token: ScimTokenRecord, entry?: AuditEntry) => Effect.Effect<void, StoreUnavailable>
    /** The organisation's tokens, oldest first. */
    readonly list: Effect.Effect<ReadonlyArray<ScimToken>, StoreUnavailable>
    readonly findByTokenHash: (
      tokenHash: TokenHash
    ) => Effect.Effect<Option.Option<ScimTokenRecord>, StoreUnavailable>
    /** Deletes the token; answers what was deleted, none when there was no such token. */
    readonly revoke: (
      id: ScimTokenId,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<ScimToken>, StoreUnavailable>
    /** Deletes every token of the organisation (it is being deleted). */
    readonly removeAll: Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/ScimTokenStore") {}
