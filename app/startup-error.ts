import { type Config, Effect, Schema } from "effect"

/** Configuration the service cannot start with; its message tells the operator what to fix. */
export class StartupError extends Schema.TaggedError<StartupError>()("StartupError", {
  message: Schema.String
}) {}

/** Stops the start with `message`. */
export const refuse = (message: string) => Effect.fail(new StartupError({ message }))

/** Reads configuration from the environment; a value that cannot be read stops the start, named. */
export const readEnvironment = <A>(config: Config.Config<A>) =>
  config.pipe(
    Effect.mapError((error) => new StartupError({ message: `Invalid configuration: ${error.message}` }))
  )
