import { Context } from "effect"
import { jsonLine } from "../../log/json-line.ts"

export interface RequestLogEntry {
  readonly requestId: string
  readonly method: string
  readonly path: string
  readonly status: number
  readonly durationMs: number
  /** Why a request ended in a 500: never sent to the client, only logged. */
  readonly error?: string
}

/** Where the one line per request goes; the app decides (standard output in production). */
export class RequestLog extends Context.Service<RequestLog, (entry: RequestLogEntry) => void>()(
  "roster/http/RequestLog"
) {}

export const jsonLines =
  (write: (line: string) => void) =>
  (entry: RequestLogEntry): void =>
    write(jsonLine(entry.status >= 500 ? "error" : "info", "request", entry))
