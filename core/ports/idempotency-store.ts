import { Context, type DateTime, type Effect } from "effect"
import type { StoreUnavailable } from "../model/errors.ts"
import type { IdempotencyKey, IdempotentStart, StoredResponse } from "../model/idempotency.ts"

/**
 * A request's claim of its key: kept until `expiresAt`, held by it alone until `leaseUntil`. Its
 * `requestKey`, unique to the claim, is what the changes it makes are recorded under (see
 * `CurrentRequestKey`): a key used again after it expired never finds an earlier claim's changes.
 */
export interface IdempotencyClaim {
  readonly requestHash: string
  readonly requestKey: string
  readonly now: DateTime.Utc
  readonly expiresAt: DateTime.Utc
  readonly leaseUntil: DateTime.Utc
}

/**
 * Idempotency keys and what their requests answered, shared by every instance. Each operation is one
 * atomic write under the key's uniqueness, so of two requests racing with one key only one runs.
 */
export class IdempotencyStore extends Context.Service<
  IdempotencyStore,
  {
    /**
     * Claims `key` for a request, unless an unexpired claim exists: then says whether to replay,
     * wait, or refuse the reuse; or, when the same request left the claim without an answer and its
     * lease has lapsed, takes the claim over for this one to resume.
     */
    readonly start: (
      key: IdempotencyKey,
      claim: IdempotencyClaim
    ) => Effect.Effect<IdempotentStart, StoreUnavailable>
    /** Keeps the answer of the request holding `key`, for its repeats. */
    readonly finish: (key: IdempotencyKey, response: StoredResponse) => Effect.Effect<void, StoreUnavailable>
    /**
     * Gives `key` up: its request changed nothing, so a repeat may run it afresh. Only the request
     * holding the lease that ends at `leaseUntil` may: a late call from one taken over does nothing.
     */
    readonly release: (key: IdempotencyKey, leaseUntil: DateTime.Utc) => Effect.Effect<void, StoreUnavailable>
    /**
     * Ends the lease on `key` that ends at `leaseUntil`, without an answer: its request stopped not
     * knowing whether its change took effect, and a repeat may resume it at once.
     */
    readonly abandon: (key: IdempotencyKey, leaseUntil: DateTime.Utc) => Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/IdempotencyStore") {}
