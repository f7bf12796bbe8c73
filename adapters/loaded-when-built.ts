import { Effect, Layer } from "effect"

/**
 * The layer `build` makes from the module `load` imports, imported only when the layer is built:
 * a package that holds megabytes once loaded (the MongoDB driver, Stripe's) costs nothing in a
 * service that does not use it.
 */
export const loadedWhenBuilt = <M, A, E, R>(
  load: () => Promise<M>,
  build: (module: M) => Layer.Layer<A, E, R>
): Layer.Layer<A, E, R> => Layer.unwrap(Effect.map(Effect.promise(load), build))
