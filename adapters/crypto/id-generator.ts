import { randomFillSync, randomUUID } from "node:crypto"
import { Effect, Layer } from "effect"
import { AuditEntryId, IdGenerator, MemberId, SubscriptionId } from "../../core/index.ts"

const hexOfByte = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"))

/**
 * 64 random bits as hex, drawn from a pool the crypto module refills 4 KiB at a time: a call into
 * it per id cost more than the rest of the id.
 */
const makeRandomHex64 = () => {
  const pool = new Uint8Array(4096)
  let offset = pool.length
  return () => {
    if (offset === pool.length) {
      randomFillSync(pool)
      offset = 0
    }
    let hex = ""
    for (const end = offset + 8; offset < end; offset++) hex += hexOfByte[pool[offset] as number]
    return hex
  }
}

/**
 * Ids that sort in the order this process made them: milliseconds, then a counter within the
 * millisecond, then randomness. Subscriptions created in the same millisecond are ordered by id
 * (`byCreation`), and a later subscribe must win over an earlier one.
 */
const makeTimeOrderedIds = () => {
  const random = makeRandomHex64()
  let lastMillis = 0
  let time = ""
  let sequence = 0
  return () => {
    const now = Date.now()
    if (now > lastMillis) {
      lastMillis = now
      time = now.toString(16).padStart(12, "0")
      sequence = 0
    } else {
      sequence++
    }
    const counter = sequence.toString(16).padStart(6, "0")
    return `${time}${counter}${random()}`
  }
}

export const idGeneratorLayer = Layer.sync(IdGenerator, () => {
  const timeOrdered = makeTimeOrderedIds()
  return IdGenerator.of({
    memberId: Effect.sync(() => MemberId.make(randomUUID())),
    subscriptionId: Effect.sync(() => SubscriptionId.make(`sub_${timeOrdered()}`)),
    auditEntryId: Effect.sync(() => AuditEntryId.make(`aud_${timeOrdered()}`))
  })
})
