import { Effect, Layer } from "effect"
import { auditTrailLayer, memoryKitLayer } from "../../adapters/memory/index.ts"
import { sessionStoreLayer } from "../../adapters/resources/sessions.ts"
import { SessionStore } from "../../core/index.ts"

/** A session store of its own in process memory, on a kit of its own: for a test to wrap. */
export const makeSessionStore = Effect.gen(function* () {
  return yield* SessionStore
}).pipe(Effect.provide(sessionStoreLayer.pipe(Layer.provide(memoryKitLayer), Layer.provide(auditTrailLayer))))
