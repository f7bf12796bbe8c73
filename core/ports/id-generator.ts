import { Context, type Effect } from "effect"
import type { IdKind, IdOf } from "../model/id-kinds.ts"

/**
 * Globally unique string ids, safe to allocate on any instance without coordination. Ids of every
 * kind but a member's sort in the order this instance made them (subscriptions and audit entries
 * rely on it).
 */
export class IdGenerator extends Context.Service<
  IdGenerator,
  {
    readonly next: <K extends IdKind>(kind: K) => Effect.Effect<IdOf<K>>
  }
>()("roster/core/ports/IdGenerator") {}
