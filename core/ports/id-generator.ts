import { Context, type Effect } from "effect"
import type { MemberId, SubscriptionId } from "../model/ids.ts"

/** Globally unique string ids, safe to allocate on any instance without coordination. */
export class IdGenerator extends Context.Service<
  IdGenerator,
  {
    readonly memberId: Effect.Effect<MemberId>
    readonly subscriptionId: Effect.Effect<SubscriptionId>
  }
>()("roster/core/ports/IdGenerator") {}
