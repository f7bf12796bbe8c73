import { DateTime, Effect, Layer } from "effect"
import { type IdempotencyKey, IdempotencyStore, type StoredResponse } from "../../core/index.ts"

interface Claim {
  readonly requestHash: string
  readonly expiresAt: DateTime.Utc
  readonly response?: StoredResponse
}

const idOf = (key: IdempotencyKey) => `${key.scope}\u0000${key.key}`

/** How often expired claims are swept out: memory stays bounded by a day's keys. */
const sweepEveryMs = 60_000

export const makeIdempotencyStore = Effect.sync(() => {
  const claims = new Map<string, Claim>()
  let nextSweep = Number.NEGATIVE_INFINITY
  const sweep = (now: DateTime.Utc) => {
    const millis = DateTime.toEpochMillis(now)
    if (millis < nextSweep) return
    nextSweep = millis + sweepEveryMs
    for (const [id, claim] of claims) if (!DateTime.isLessThan(now, claim.expiresAt)) claims.delete(id)
  }
  const store = IdempotencyStore.of({
    start: (key, requestHash, now, expiresAt) =>
      Effect.sync(() => {
        sweep(now)
        const existing = claims.get(idOf(key))
        if (existing === undefined || !DateTime.isLessThan(now, existing.expiresAt)) {
          claims.set(idOf(key), { requestHash, expiresAt })
          return { _tag: "Run" } as const
        }
        if (existing.requestHash !== requestHash) return { _tag: "Reused" } as const
        return existing.response === undefined
          ? ({ _tag: "InProgress" } as const)
          : ({ _tag: "Replay", response: existing.response } as const)
      }),
    finish: (key, response) =>
      Effect.sync(() => {
        const existing = claims.get(idOf(key))
        if (existing !== undefined) claims.set(idOf(key), { ...existing, response })
      }),
    release: (key) => Effect.sync(() => void claims.delete(idOf(key)))
  })
  /** How many keys are held, expired ones not yet swept included. */
  return Object.assign(store, { held: () => claims.size })
})

export const idempotencyStoreLayer = Layer.effect(IdempotencyStore, makeIdempotencyStore)
