import { Cause, Context, Logger, Tracer } from "effect"

export type LogLevelName = "debug" | "info" | "warn" | "error"

let formattedAt = Number.NaN
let formatted = ""

/** The time of a line, formatted once per millisecond: a busy server writes many lines in each. */
export const lineTime = () => {
  const now = Date.now()
  if (now !== formattedAt) {
    formattedAt = now
    formatted = new Date(now).toISOString()
  }
  return formatted
}

/** Every line the process writes has this one shape: `{ time, level, msg, ...fields }`. */
export const jsonLine = (level: LogLevelName, msg: string, fields: object = {}): string =>
  JSON.stringify({ time: lineTime(), level, msg, ...fields })

const levelNames: Record<string, LogLevelName> = {
  Trace: "debug",
  Debug: "debug",
  Info: "info",
  Warn: "warn",
  Warning: "warn",
  Error: "error",
  Fatal: "error"
}

/** The trace and span a line was written in, when an operator traces. */
export const traceFieldsOf = (span: Tracer.AnySpan | undefined) =>
  span === undefined ? {} : { traceId: span.traceId, spanId: span.spanId }

/**
 * What Effect logs (a store's start-up warning, a use case's warning), written as the same JSON
 * lines, with the trace and span of a traced request.
 */
export const jsonLineLogger = (write: (line: string) => void) =>
  Logger.make<unknown, void>(({ message, logLevel, cause, fiber }) => {
    const parts = Array.isArray(message) ? message : [message]
    const fields = {
      ...traceFieldsOf(Context.getOrUndefined(fiber.context, Tracer.ParentSpan)),
      ...(cause.reasons.length === 0 ? {} : { cause: Cause.pretty(cause) })
    }
    write(jsonLine(levelNames[logLevel] ?? "info", parts.map(String).join(" "), fields))
  })
