import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { Duration, Redacted } from "effect"
import { afterAll, inject } from "vitest"
import { stripeProviderLayer } from "../../adapters/payments/stripe-provider.ts"

/** One request Roster made of Stripe's API, as it arrived. */
export interface StripeRequest {
  readonly method: string
  readonly path: string
  readonly idempotencyKey: string | undefined
  /** The W3C trace context it carried, when Roster traced the call. */
  readonly traceparent: string | undefined
  /** The form-encoded parameters, e.g. `line_items[0][price]`. */
  readonly params: URLSearchParams
}

/** What Stripe answers a request in a test's script: a status, a JSON body and headers. */
export interface ScriptedAnswer {
  readonly status: number
  readonly body: unknown
  readonly headers?: Record<string, string>
}

export interface StripeRecorder {
  /** Where Roster is pointed (`STRIPE_API_URL`). */
  readonly url: string
  readonly requests: ReadonlyArray<StripeRequest>
  /** `down`: every connection is cut; `hang`: nothing is answered; `up`: passed on to stripe-mock. */
  mode: "up" | "down" | "hang"
  /** Answers some requests as a test scripts them (stateful Stripe behaviour stripe-mock lacks); the rest as `mode` says. */
  script: (request: StripeRequest) => ScriptedAnswer | "down" | undefined
  readonly close: () => Promise<void>
}

/** Stripe's error body for an API error of `type`. */
export const stripeError = (type: string, message: string) => ({ error: { type, message } })

const bodyOf = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = ""
    request.on("data", (chunk) => (body += chunk))
    request.on("end", () => resolve(body))
  })

/**
 * A proxy in front of the run's stripe-mock that records what Roster asks of Stripe, and can play a
 * provider that is down or hangs. Closed after the test file.
 */
export const startStripeRecorder = async (): Promise<StripeRecorder> => {
  const upstream = inject("stripeApiUrl")
  const requests: Array<StripeRequest> = []
  const server = createServer(async (request, response) => {
    const body = await bodyOf(request)
    const url = new URL(request.url ?? "/", upstream)
    const recorded: StripeRequest = {
      method: request.method ?? "",
      path: url.pathname,
      idempotencyKey: request.headers["idempotency-key"] as string | undefined,
      traceparent: request.headers.traceparent as string | undefined,
      params: new URLSearchParams([...url.searchParams, ...new URLSearchParams(body)])
    }
    requests.push(recorded)
    const scripted = recorder.script(recorded)
    if (scripted === "down" || (scripted === undefined && recorder.mode === "down")) {
      return void request.socket.destroy()
    }
    if (scripted !== undefined) {
      response.writeHead(scripted.status, { "content-type": "application/json", ...scripted.headers })
      return void response.end(JSON.stringify(scripted.body))
    }
    if (recorder.mode === "hang") return
    const answer = await fetch(url, {
      method: request.method ?? "GET",
      headers: {
        authorization: request.headers.authorization ?? "",
        "content-type": "application/x-www-form-urlencoded"
      },
      ...(request.method === "GET" || request.method === "DELETE" ? {} : { body })
    })
    response.writeHead(answer.status, { "content-type": "application/json" })
    response.end(await answer.text())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const recorder: StripeRecorder = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    mode: "up",
    script: () => undefined,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
  afterAll(() => recorder.close())
  return recorder
}

export const checkoutReturn = {
  successUrl: "https://app.example/billing/done",
  cancelUrl: "https://app.example/billing"
}

/** Roster's Stripe provider pointed at `recorder`, with a test key and a short timeout. */
export const stripeThrough = (recorder: StripeRecorder, timeout: Duration.Input = "2 seconds") =>
  stripeProviderLayer({
    secretKey: Redacted.make("sk_test_roster"),
    apiUrl: new URL(recorder.url),
    timeout: Duration.fromInputUnsafe(timeout),
    ...checkoutReturn
  })

/** The requests made to `path` by `method`. */
export const requestsTo = (recorder: StripeRecorder, method: string, path: string | RegExp) =>
  recorder.requests.filter(
    (request) =>
      request.method === method &&
      (typeof path === "string" ? request.path === path : path.test(request.path))
  )
