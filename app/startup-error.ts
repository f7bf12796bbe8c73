import { Schema } from "effect"

/** Configuration the service cannot start with; its message tells the operator what to fix. */
export class StartupError extends Schema.TaggedError<StartupError>()("StartupError", {
  message: Schema.String
}) {}
