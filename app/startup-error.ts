import { type Config, Effect, Schema } from "effect"

/** Configuration the service cannot start with; its message tells the operator what to fix. */
export class StartupError extends Schema.TaggedError<StartupError>()("StartupError", {
  message: Schema.String
}) {}

/** Stops the start with `message`. */
export const refuse = (message: string) => Effect.fail(new StartupError({ message }))

/** What the schema's words for a value mean to someone setting a variable. */
const plainly: ReadonlyArray<readonly [RegExp, string]> = [
  [/^a string representing a finite number$/u, "a number"],
  [/^a value between (\d+) and (\d+)$/u, "a number from $1 to $2"],
  [/^a valid Duration string$/u, "a duration such as `12 hours` or `30 minutes`"],
  [/^"true" \| "yes" .*$/u, "true or false"]
]

/**
 * A configuration error as an operator reads it: the variable and what it must be
 * (`PORT must be a number`), not the schema's report. The value is not repeated: it may be a secret.
 */
export const describeConfigError = (message: string) => {
  const found = /SchemaError\(Expected (.*)\n\s*at \[(.*)\]\)/su.exec(message)
  if (found === null) return `Invalid configuration: ${message}`
  const [, expected = "", path = ""] = found
  const name = path.replaceAll('"', "").replaceAll(",", ".")
  const meaning = plainly.reduce((text, [pattern, plain]) => text.replace(pattern, plain), expected)
  const choices = meaning.includes('" | "') ? `one of ${meaning.replaceAll('" | "', '", "')}` : meaning
  return `${name} must be ${choices}`
}

/** Reads configuration from the environment; a value that cannot be read stops the start, named. */
export const readEnvironment = <A>(config: Config.Config<A>) =>
  config.pipe(Effect.mapError((error) => new StartupError({ message: describeConfigError(error.message) })))
