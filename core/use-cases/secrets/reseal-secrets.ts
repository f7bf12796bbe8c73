import { Effect } from "effect"
import { SealedSecrets } from "../../ports/sealed-secrets.ts"
import { SecretBox } from "../../ports/secret-box.ts"

/** What a batch of `resealSecrets` did, and where the next begins (none: all are done). */
export interface ResealedBatch {
  readonly resealed: number
  readonly current: number
  readonly unreadable: number
  readonly next: string | undefined
}

/**
 * Seals again, under the secret box's first key, the sealed secrets of one batch of records after
 * `after`: what is sealed under the first key already is left, what no key opens is counted and
 * left (its key must be put back), each other one is opened and sealed again in one write of its
 * record, only while the record still holds it. Idempotent and resumable: run it batch after batch
 * (`next`); stopped anywhere, every secret is sealed under an old key or the new one, and the next
 * run goes on.
 */
export const resealSecrets = Effect.fnUntraced(function* (after: string | undefined, limit: number) {
  const store = yield* SealedSecrets
  const box = yield* SecretBox
  const records = yield* store.page(after, limit)
  let resealed = 0
  let current = 0
  let unreadable = 0
  for (const { place, sealed } of records) {
    for (const from of sealed) {
      if (box.sealedUnderFirst(from)) {
        current++
        continue
      }
      const secret = yield* box.open(from).pipe(Effect.option)
      if (secret._tag === "None") {
        unreadable++
        continue
      }
      // Changed meanwhile (rotated, replaced): what holds it now was sealed under the first key.
      if (yield* store.reseal(place, from, yield* box.seal(secret.value))) resealed++
      else current++
    }
  }
  const next = records.length < limit ? undefined : records.at(-1)?.place
  return { resealed, current, unreadable, next } satisfies ResealedBatch
})
