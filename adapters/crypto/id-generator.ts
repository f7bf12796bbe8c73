import { randomUUID } from "node:crypto"
import { Effect, Layer } from "effect"
import { IdGenerator, MemberId, SubscriptionId } from "../../core/index.ts"

export const idGeneratorLayer = Layer.succeed(
  IdGenerator,
  IdGenerator.of({
    memberId: Effect.sync(() => MemberId.make(randomUUID())),
    subscriptionId: Effect.sync(() => SubscriptionId.make(`sub_${randomUUID().replaceAll("-", "")}`))
  })
)
