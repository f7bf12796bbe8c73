import { Effect } from "effect"
import type { Db } from "mongodb"
import { liftAbandonedFences } from "./abandoned-fences.ts"
import { settleAccounts } from "./account-changes.ts"
import { relayPending } from "./relay.ts"
import { relayBatches } from "./relay-batches.ts"
import { countUncountedHolders } from "./role-holders.ts"
import { abandonedAfter } from "./timeouts.ts"

/** Every entry a stopped process left pending moved into the record, removed documents drained. */
export const relayAtStart = (db: Db) => relayPending(db, relayBatches(db))

/**
 * The rest of what stopped processes left, repaired at start once the migrations ran: roles'
 * holders counted, accounts left pending settled, fences left up taken down. Each step is idempotent.
 */
export const repairAtStart = (db: Db) =>
  countUncountedHolders(db).pipe(Effect.andThen(settleAccounts(db)), Effect.andThen(liftAbandonedFences(db)))

/**
 * Fences a write left up when its outcome was unknown (the store stopped answering), taken down
 * while the process runs as at each start, once older than any write.
 */
export const repairWhileRunning = (db: Db) =>
  Effect.forkScoped(
    Effect.forever(
      Effect.andThen(Effect.sleep(abandonedAfter.fenceMs / 2), Effect.ignore(liftAbandonedFences(db)))
    )
  )
