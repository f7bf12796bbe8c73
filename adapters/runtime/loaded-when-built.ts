import { Effect, Layer } from "effect"

/** An optional package a feature needs, named for the operator who must install it. */
export interface OptionalPackage {
  readonly name: string
  /** The feature that needs it, as the operator turned it on: "the MongoDB store (MONGODB_URI)". */
  readonly feature: string
}

/** Whether `error` says that the package `name` could not be found. */
const isMissing = (error: unknown, name: string) => {
  const { code, message } = (error ?? {}) as { readonly code?: unknown; readonly message?: unknown }
  const text = String(message)
  const notFound =
    code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND" || /find (package|module)/iu.test(text)
  return notFound && (text.includes(`'${name}'`) || text.includes(`"${name}"`))
}

/**
 * The layer `build` makes from the module `load` imports, imported only when the layer is built:
 * a package that holds megabytes once loaded (the MongoDB driver, Stripe's) costs nothing in a
 * service that does not use it. When the optional package the module needs is not installed, the
 * layer fails with a message naming the package and the feature, not the runtime's bare error.
 */
export const loadedWhenBuilt = <M, A, E, R>(
  load: () => Promise<M>,
  build: (module: M) => Layer.Layer<A, E, R>,
  needs: OptionalPackage
): Layer.Layer<A, E, R> =>
  Layer.unwrap(
    Effect.map(
      Effect.tryPromise({ try: load, catch: (error) => error }).pipe(
        Effect.catch((error) =>
          Effect.die(
            isMissing(error, needs.name)
              ? new Error(
                  `${needs.feature} needs the package ${needs.name}, which is not installed: npm install ${needs.name}`
                )
              : error
          )
        )
      ),
      build
    )
  )
