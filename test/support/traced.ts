import { Layer, ManagedRuntime, Tracer } from "effect"

/**
 * `services` with a tracer that fails the test if it is ever asked for a span: a traced server,
 * for what only checks whether one is traced (the answers made before the router, which a traced
 * server leaves to the router).
 */
export const tracedRuntime = <A, E>(services: Layer.Layer<A, E>) =>
  ManagedRuntime.make(
    Layer.merge(
      services,
      Layer.succeed(Tracer.Tracer)(
        Tracer.make({
          span: () => {
            throw new Error("no span expected")
          }
        })
      )
    )
  )
