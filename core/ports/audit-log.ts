import { Context, type Effect, type Option } from "effect"
import type { AuditEntry, AuditQuery } from "../model/audit.ts"
import type { StoreUnavailable } from "../model/errors.ts"

/**
 * The audit record: append-only. A change's entry is handed to the change's own store, which
 * writes it with the change, atomically: the record shows it from then on, wherever and however the
 * store keeps it meanwhile, so an entry is never lost nor doubled, nor shown without its change.
 */
export class AuditLog extends Context.Service<
  AuditLog,
  {
    /** Appends an entry that goes with no stored change (a failed or throttled login). */
    readonly record: (entry: AuditEntry) => Effect.Effect<void, StoreUnavailable>
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
