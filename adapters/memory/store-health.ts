import { Effect, Layer } from "effect"
import { StoreHealth } from "../../core/index.ts"

/** Process memory is always there while the process is. */
export const storeHealthLayer = Layer.succeed(StoreHealth, StoreHealth.of({ ping: Effect.void }))
