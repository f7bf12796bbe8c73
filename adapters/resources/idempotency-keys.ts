import { DateTime, Effect, Layer, Option, Schema } from "effect"
import {
  type IdempotencyClaim,
  type IdempotencyKey,
  IdempotencyStore,
  type IdempotentStart,
  StoredResponse,
  type StoreUnavailable
} from "../../core/index.ts"
import { expirySweep } from "./expiry-sweep.ts"
import { RecordKit } from "./records.ts"
import { resource } from "./resource.ts"

/**
 * A claimed key: `id` names the caller's scope and the key. A claim MongoDB kept before leases
 * were has neither lease nor `requestKey`: it is held until it expires, as it was then, never resumed.
 */
const Claim = Schema.Struct({
  id: Schema.String,
  requestHash: Schema.String,
  requestKey: Schema.optionalKey(Schema.String),
  expiresAt: Schema.DateTimeUtc,
  leaseUntil: Schema.optionalKey(Schema.DateTimeUtc),
  response: Schema.optionalKey(StoredResponse)
})
type Claim = typeof Claim.Type

/** Claims by key, so that of requests racing with one key only one inserts it; found by lease. */
export const idempotencyKeys = resource({
  name: "idempotency_keys",
  schema: Claim,
  key: "id",
  columns: ["id", "expiresAt", "leaseUntil"],
  indexes: [["expiresAt"]]
})

/** A claim's id: the scope and the key as JSON, the `_id` MongoDB gave claims before the kit. */
export const idOf = (key: IdempotencyKey) => JSON.stringify([key.scope, key.key])

/** How a request claiming a key with `claim` proceeds over the claim `stored`, and what it leaves. */
const decide = (
  stored: Claim,
  claim: IdempotencyClaim,
  fresh: Claim
): { readonly started: IdempotentStart; readonly next?: Claim } => {
  const { now, requestHash, leaseUntil } = claim
  if (!DateTime.isLessThan(now, stored.expiresAt)) return { started: { _tag: "Run" }, next: fresh }
  if (stored.requestHash !== requestHash) return { started: { _tag: "Reused" } }
  if (stored.response !== undefined) return { started: { _tag: "Replay", response: stored.response } }
  const lease = stored.leaseUntil ?? stored.expiresAt
  if (DateTime.isLessThan(now, lease) || stored.requestKey === undefined) {
    return { started: { _tag: "InProgress" } }
  }
  return { started: { _tag: "Resume", requestKey: stored.requestKey }, next: { ...stored, leaseUntil } }
}

export const idempotencyStoreLayer = Layer.effect(
  IdempotencyStore,
  Effect.gen(function* () {
    const claims = yield* (yield* RecordKit).open(idempotencyKeys)
    const sweep = expirySweep(claims)
    const start = (
      key: IdempotencyKey,
      claim: IdempotencyClaim
    ): Effect.Effect<IdempotentStart, StoreUnavailable> =>
      Effect.gen(function* () {
        yield* sweep(claim.now)
        const { requestHash, requestKey, expiresAt, leaseUntil } = claim
        const fresh: Claim = { id: idOf(key), requestHash, requestKey, expiresAt, leaseUntil }
        const inserted = yield* claims
          .insert(fresh)
          .pipe(
            Effect.as(true),
            Effect.catchTags({ Taken: () => Effect.succeed(false), Full: (full) => Effect.die(full) })
          )
        if (inserted) return { _tag: "Run" } as const
        // The decision is made over the claim as the write found it, whatever changed it meanwhile.
        const changed = yield* claims.modify({ id: fresh.id }, (stored) => decide(stored, claim, fresh).next)
        // Deleted as expired since the insert was refused: claimed afresh.
        if (Option.isNone(changed)) return yield* start(key, claim)
        return decide(changed.value.before, claim, fresh).started
      })
    return IdempotencyStore.of({
      start,
      finish: (key, response) =>
        claims.modify({ id: idOf(key) }, (stored) => ({ ...stored, response })).pipe(Effect.asVoid),
      release: (key, leaseUntil) => claims.remove({ id: idOf(key), leaseUntil }).pipe(Effect.asVoid),
      abandon: (key, leaseUntil) =>
        claims
          .modify({ id: idOf(key), leaseUntil }, (stored) =>
            stored.response === undefined ? { ...stored, leaseUntil: DateTime.makeUnsafe(0) } : undefined
          )
          .pipe(Effect.asVoid)
    })
  })
)
