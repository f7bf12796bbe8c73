import { Context, type DateTime, type Effect } from "effect"
import type { StoreUnavailable } from "../model/errors.ts"
import type { IdempotencyKey, IdempotentStart, StoredResponse } from "../model/idempotency.ts"

/**
 * Idempotency keys and what their requests answered, shared by every instance. Each operation is one
 * atomic write under the key's uniqueness, so of two requests racing with one key only one runs.
 */
export class IdempotencyStore extends Context.Service<
  IdempotencyStore,
  {
    /**
     * Claims `key` for a request with the digest `requestHash`, until `expiresAt`, unless an
     * unexpired claim exists: then says whether to replay, wait, or refuse the reuse.
     */
    readonly start: (
      key: IdempotencyKey,
      requestHash: string,
      now: DateTime.Utc,
      expiresAt: DateTime.Utc
    ) => Effect.Effect<IdempotentStart, StoreUnavailable>
    /** Keeps the answer of the request holding `key`, for its repeats. */
    readonly finish: (key: IdempotencyKey, response: StoredResponse) => Effect.Effect<void, StoreUnavailable>
    /** Gives `key` up: its request changed nothing, so a repeat may run it afresh. */
    readonly release: (key: IdempotencyKey) => Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/IdempotencyStore") {}
