import { AsyncLocalStorage } from "node:async_hooks"
import { Context, Duration, Effect, Redacted, Tracer } from "effect"
import Stripe from "stripe"
import { ProviderUnavailable } from "../../core/index.ts"
import type { StripeClientOptions } from "./stripe-options.ts"

/** The W3C `traceparent` of the span a call to Stripe is made in, for the requests it sends. */
const traceparents = new AsyncLocalStorage<string>()

/**
 * The runtime's `fetch`, passing the caller's trace on (only when an operator traces); what a
 * runtime adds to its `fetch` (Bun's `preconnect`) comes along.
 */
const tracedFetch = Object.assign((input: string | URL | Request, init?: RequestInit) => {
  const traceparent = traceparents.getStore()
  if (traceparent === undefined) return fetch(input, init)
  const headers = new Headers(init?.headers)
  headers.set("traceparent", traceparent)
  return fetch(input, { ...init, headers })
}, fetch)

/** The official client on the runtime's `fetch`, so it runs the same on Bun, Node and Deno. */
export const makeStripeClient = (options: StripeClientOptions) => {
  const url = options.apiUrl
  return new Stripe(Redacted.value(options.secretKey), {
    httpClient: Stripe.createFetchHttpClient(tracedFetch),
    timeout: Duration.toMillis(options.timeout),
    maxNetworkRetries: 1,
    appInfo: { name: "roster" },
    ...(url === undefined
      ? {}
      : {
          host: url.hostname,
          port: url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port),
          protocol: url.protocol === "https:" ? "https" : "http"
        })
  })
}

/** Failures that say Stripe cannot answer now (unreachable, timed out, overloaded, failing): retry later. */
const isOutage = (error: unknown) =>
  error instanceof Stripe.errors.StripeConnectionError ||
  error instanceof Stripe.errors.StripeAPIError ||
  error instanceof Stripe.errors.StripeRateLimitError

const isInvalidRequest = (error: unknown): error is Stripe.errors.StripeInvalidRequestError =>
  error instanceof Stripe.errors.StripeInvalidRequestError

/** Anything shaped like a Stripe key in a message some server echoed: masked before it can reach a log. */
const withoutKeys = (message: string) => message.replace(/\b(sk|rk|pk)_(test|live)_[A-Za-z0-9]+/g, "$1_$2_…")

/** What Stripe refused, for the operator's log: its type, status and message, never a key. */
const refusal = (error: unknown) =>
  error instanceof Stripe.errors.StripeError
    ? new Error(
        `Stripe refused the request (${error.type}, HTTP ${error.statusCode}): ${withoutKeys(error.message)}`
      )
    : error

/** Stripe keeps the first answer to a key for a day, its own failures (500) included: this is one replayed. */
const isReplayedFailure = (error: unknown) =>
  error instanceof Stripe.errors.StripeAPIError && error.headers?.["idempotent-replayed"] === "true"

/** `00-<trace>-<span>-<flags>` of the span a call runs in, when it runs in one of ours (tracing on). */
const traceparentOf = (context: Context.Context<never>) => {
  const span = Context.getOrUndefined(context, Tracer.ParentSpan)
  return span?._tag === "Span" ? `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}` : undefined
}

const attempt = <A>(request: (options: Stripe.RequestOptions) => Promise<A>, idempotencyKey?: string) =>
  Effect.withFiber((fiber) => {
    const traceparent = traceparentOf(fiber.context)
    const send = () => request(idempotencyKey === undefined ? {} : { idempotencyKey })
    return Effect.tryPromise({
      try: () => (traceparent === undefined ? send() : traceparents.run(traceparent, send)),
      catch: (error) => error
    })
  })

/**
 * One call to Stripe. With a key made of our ids, a retry (the client library's, ours, another
 * instance's) has one effect; a failure of Stripe's own that it replays for that key is tried once
 * more under a fresh key, so one bad moment at Stripe does not refuse the operation for a day.
 * `alreadyDone` turns a refusal that means the work is already done (a session no longer open, a
 * subscription already over) into its answer. An outage is `ProviderUnavailable`; anything else
 * Stripe refuses is a defect here (a wrong key or price id is the operator's to fix, not the client's).
 */
export const callStripe = <A>(
  key: string | undefined,
  request: (options: Stripe.RequestOptions) => Promise<A>,
  alreadyDone: (error: Stripe.errors.StripeInvalidRequestError) => Promise<A | undefined> = async () =>
    undefined
): Effect.Effect<A, ProviderUnavailable> => {
  const idempotencyKey = key === undefined ? undefined : `roster-${key}`
  return attempt(request, idempotencyKey).pipe(
    Effect.catch((error) =>
      isReplayedFailure(error)
        ? attempt(request, `${idempotencyKey}-${Date.now().toString(36)}`)
        : Effect.fail(error)
    ),
    Effect.catch((error) =>
      isInvalidRequest(error)
        ? attempt(() => alreadyDone(error)).pipe(
            Effect.flatMap((done) => (done === undefined ? Effect.fail(error) : Effect.succeed(done)))
          )
        : Effect.fail(error)
    ),
    Effect.catch((error) =>
      isOutage(error) ? Effect.fail(new ProviderUnavailable()) : Effect.die(refusal(error))
    )
  )
}
