import { Effect } from "effect"
import { StoreHealth } from "../../ports/store-health.ts"

/** Ready when the store answers; fails with StoreUnavailable otherwise. */
export const checkReadiness = Effect.fnUntraced(function* () {
  yield* (yield* StoreHealth).ping
})
