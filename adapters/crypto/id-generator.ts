import { randomBytes, randomUUID } from "node:crypto"
import { Effect, Layer } from "effect"
import { AuditEntryId, IdGenerator, MemberId, SubscriptionId } from "../../core/index.ts"

/**
 * Ids that sort in the order this process made them: milliseconds, then a counter within the
 * millisecond, then randomness. Subscriptions created in the same millisecond are ordered by id
 * (`byCreation`), and a later subscribe must win over an earlier one.
 */
const makeTimeOrderedIds = () => {
  let lastMillis = 0
  let sequence = 0
  return () => {
    const now = Date.now()
    if (now > lastMillis) {
      lastMillis = now
      sequence = 0
    } else {
      sequence++
    }
    const time = lastMillis.toString(16).padStart(12, "0")
    const counter = sequence.toString(16).padStart(6, "0")
    return `${time}${counter}${randomBytes(8).toString("hex")}`
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
