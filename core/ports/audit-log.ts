import { Context, type Effect, type Option } from "effect"
import type { AuditEntry, AuditQuery } from "../model/audit.ts"
import type { StoreUnavailable } from "../model/errors.ts"

/**
 * The audit record: append-only. A change's entry is written by the change's own store in the
 * same atomic write as the change (pending on the changed document where the store needs it); the
 * relay then moves it into the record, idempotently, so an entry is never lost nor doubled.
 */
export class AuditLog extends Context.Service<
  AuditLog,
  {
    /** Appends an entry that goes with no stored change (a failed or throttled login). */
    readonly record: (entry: AuditEntry) => Effect.Effect<void, StoreUnavailable>
    /**
     * Has `entry` moved into the record after the write that carried it; an entry whose write did
     * not happen (its condition failed) is not moved. A store may move it with a batch of others
     * (MongoDB's, within a second), but the process that relayed it reads it at once in `page`.
     * Harmless to repeat. Entries a dead process left pending are moved when the store starts.
     */
    readonly relay: (entry: AuditEntry) => Effect.Effect<void, StoreUnavailable>
    /**
     * The entry of the change a request with this `requestKey` made (see `CurrentRequestKey`),
     * pending ones included: none when that request changed nothing.
     */
    readonly changeOfRequest: (
      requestKey: string
    ) => Effect.Effect<Option.Option<AuditEntry>, StoreUnavailable>
    /** At most `limit` entries matching the query, newest first, after `query.after`. */
    readonly page: (
      query: AuditQuery,
      limit: number
    ) => Effect.Effect<ReadonlyArray<AuditEntry>, StoreUnavailable>
  }
>()("roster/core/ports/AuditLog") {}
