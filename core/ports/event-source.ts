import { Context, type Effect } from "effect"
import type { AuditEntry, AuditEntryId } from "../model/audit.ts"
import type { StoreUnavailable } from "../model/errors.ts"

/**
 * The audit record read as the source of events: the entries of announced changes (`isAnnounced`)
 * that have not yet been turned into deliveries. An entry is here once the record shows it: a
 * change that did not happen is never here, one that did always is.
 */
export class EventSource extends Context.Service<
  EventSource,
  {
    /** At most `limit` entries not yet sent, oldest first. */
    readonly unsent: (limit: number) => Effect.Effect<ReadonlyArray<AuditEntry>, StoreUnavailable>
    /** Marks entries sent: their deliveries are enqueued. */
    readonly markSent: (ids: ReadonlyArray<AuditEntryId>) => Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/EventSource") {}
