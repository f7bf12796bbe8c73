import { DateTime, Effect, Layer } from "effect"
import {
  type IdempotencyClaim,
  type IdempotencyKey,
  IdempotencyStore,
  type StoredResponse
} from "../../core/index.ts"

interface Claim {
  readonly requestHash: string
  readonly requestKey: string
  readonly expiresAt: DateTime.Utc
  readonly leaseUntil: DateTime.Utc
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
  const holds = (key: IdempotencyKey, leaseUntil: DateTime.Utc) => {
    const existing = claims.get(idOf(key))
    return existing !== undefined && DateTime.Equivalence(existing.leaseUntil, leaseUntil)
  }
  const start = (
    key: IdempotencyKey,
    { requestHash, requestKey, now, expiresAt, leaseUntil }: IdempotencyClaim
  ) =>
    Effect.sync(() => {
      sweep(now)
      const existing = claims.get(idOf(key))
      if (existing === undefined || !DateTime.isLessThan(now, existing.expiresAt)) {
        claims.set(idOf(key), { requestHash, requestKey, expiresAt, leaseUntil })
        return { _tag: "Run" } as const
      }
      if (existing.requestHash !== requestHash) return { _tag: "Reused" } as const
      if (existing.response !== undefined) return { _tag: "Replay", response: existing.response } as const
      if (DateTime.isLessThan(now, existing.leaseUntil)) return { _tag: "InProgress" } as const
      claims.set(idOf(key), { ...existing, leaseUntil })
      return { _tag: "Resume", requestKey: existing.requestKey } as const
    })
  const store = IdempotencyStore.of({
    start,
    finish: (key, response) =>
      Effect.sync(() => {
        const existing = claims.get(idOf(key))
        if (existing !== undefined) claims.set(idOf(key), { ...existing, response })
      }),
    release: (key, leaseUntil) =>
      Effect.sync(() => {
        if (holds(key, leaseUntil)) claims.delete(idOf(key))
      }),
    abandon: (key, leaseUntil) =>
      Effect.sync(() => {
        const existing = claims.get(idOf(key))
        if (existing !== undefined && existing.response === undefined && holds(key, leaseUntil)) {
          claims.set(idOf(key), { ...existing, leaseUntil: DateTime.makeUnsafe(0) })
        }
      })
  })
  /** How many keys are held, expired ones not yet swept included. */
  return Object.assign(store, { held: () => claims.size })
})

export const idempotencyStoreLayer = Layer.effect(IdempotencyStore, makeIdempotencyStore)
