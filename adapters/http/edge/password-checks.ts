import * as Problem from "../problems.ts"
import { render, toResponse } from "./guards.ts"
import { checksPassword } from "./route-table.ts"
import { pathOfUrl } from "./url-parts.ts"

/**
 * At most `atOnce` requests that check a password (login, changing one's own password) in progress
 * at once; the next are refused at the edge with 503 and `Retry-After`, before their body is read.
 * Each one admitted counts an attempt against throttling and waits for a hash: a flood of them for
 * one account let in all at once was answered 429 one by one, each with its audit entry, and took
 * the event loop from cheap reads; refused here, one costs about as little as a request can.
 * Without a bound, every request is admitted.
 */
export const makePasswordChecks = async (atOnce: number | undefined) => {
  const busy = await render(
    new Problem.Busy({
      detail: "Every password check this instance may run is running; the request changed nothing",
      retryAfterSeconds: 1
    }),
    { "retry-after": "1" }
  )
  let inProgress = 0
  const release = () => {
    inProgress--
  }
  return {
    /** Serves `request` through `serve` when it may run now. */
    admit: (request: Request, serve: () => Promise<Response>): Promise<Response> => {
      if (atOnce === undefined || request.method !== "POST") return serve()
      if (!checksPassword(request.method, pathOfUrl(request.url))) return serve()
      if (inProgress >= atOnce) return Promise.resolve(toResponse(busy))
      inProgress++
      return serve().finally(release)
    }
  }
}
