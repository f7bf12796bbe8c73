import { Context } from "effect"
import { lineTime } from "../../log/json-line.ts"

export interface RequestLogEntry {
  readonly requestId: string
  readonly method: string
  readonly path: string
  readonly status: number
  readonly durationMs: number
  /** Why a request ended in a 500: never sent to the client, only logged. */
  readonly error?: string
  /** The trace and span of the request, when an operator traces. */
  readonly traceId?: string
  readonly spanId?: string
}

/** Where the one line per request goes; the app decides (standard output in production). */
export class RequestLog extends Context.Service<RequestLog, (entry: RequestLogEntry) => void>()(
  "roster/http/RequestLog"
) {}

/**
 * `jsonLine`'s shape, each field named once (spreading the entry into a new object cost ~0.3 µs a
 * line); `satisfies` fails the build should a field of the entry be left out.
 */
export const jsonLines =
  (write: (line: string) => void) =>
  (entry: RequestLogEntry): void =>
    write(
      JSON.stringify({
        time: lineTime(),
        level: entry.status >= 500 ? "error" : "info",
        msg: "request",
        requestId: entry.requestId,
        method: entry.method,
        path: entry.path,
        status: entry.status,
        durationMs: entry.durationMs,
        error: entry.error,
        traceId: entry.traceId,
        spanId: entry.spanId
      } satisfies Record<"time" | "level" | "msg" | keyof RequestLogEntry, unknown>)
    )
