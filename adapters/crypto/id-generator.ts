import { randomFillSync, randomUUID } from "node:crypto"
import { Effect, Layer } from "effect"
import { IdGenerator, idKinds } from "../../core/index.ts"

const hexDigit = Buffer.from("0123456789abcdef", "latin1")
const maxSequence = 0xffffff

/**
 * Ids that sort in the order this process made them: a prefix, milliseconds (12 hex digits), a
 * counter within the millisecond (6), then 64 random bits (16). Subscriptions created in the same
 * millisecond are ordered by id (`byCreation`), and a later subscribe must win over an earlier one.
 * A clock set back does not move the ids' time back: they keep counting on the last millisecond.
 *
 * Each id is written as bytes and read back as one string. Joined from pieces, an id was a chain of
 * eleven strings in JavaScriptCore (356 bytes where 68 do), and the in-memory audit trail keeps one
 * per entry. Random bytes come from a pool refilled 4 KiB at a time: a call into the
 * crypto module per id cost more than the rest of the id.
 */
const makeTimeOrderedIds = () => {
  const pool = Buffer.alloc(4096)
  let taken = pool.length
  const out = Buffer.alloc(64)
  let lastMillis = 0
  let sequence = 0
  const writeHex = (at: number, value: number, digits: number) => {
    let rest = value
    for (let i = at + digits - 1; i >= at; i--) {
      out[i] = hexDigit[rest % 16] as number
      rest = Math.floor(rest / 16)
    }
    return at + digits
  }
  return (prefix: string) => {
    const now = Date.now()
    if (now > lastMillis) {
      lastMillis = now
      sequence = 0
    } else if (sequence < maxSequence) {
      sequence++
    } else {
      lastMillis++
      sequence = 0
    }
    if (taken === pool.length) {
      randomFillSync(pool)
      taken = 0
    }
    let at = out.write(prefix, 0, "latin1")
    at = writeHex(at, lastMillis, 12)
    at = writeHex(at, sequence, 6)
    for (const end = taken + 8; taken < end; taken++) at = writeHex(at, pool[taken] as number, 2)
    return out.toString("latin1", 0, at)
  }
}

export const idGeneratorLayer = Layer.sync(IdGenerator, () => {
  const timeOrdered = makeTimeOrderedIds()
  return IdGenerator.of({
    next: (kind) =>
      Effect.sync(() => {
        const { brand, prefix } = idKinds[kind]
        return brand.make(prefix === undefined ? randomUUID() : timeOrdered(prefix)) as never
      })
  })
})
