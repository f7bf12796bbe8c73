import { Context, Layer, Tracer } from "effect"
import { HttpMiddleware } from "effect/http"
import { requestLabelsOf } from "./count-answer.ts"
import { pathOf } from "./url-parts.ts"

/** A request's span is named as OpenTelemetry's conventions say: its method and route template. */
const spanNames = Layer.succeed(HttpMiddleware.SpanNameGenerator)((request) => {
  const { method, route } = requestLabelsOf(request.method, pathOf(request.url))
  return `${method} ${route}`
})

/**
 * A tracer provided with the services (an operator's OpenTelemetry layer) traces every request as
 * well, and use cases run in the request's span. Without one, nothing is traced and nothing paid:
 * Effect's HTTP server skips spans when no tracer is set.
 */
export const tracingOf = (services: Context.Context<never>) => {
  const tracer = Context.getOrUndefined(services, Tracer.Tracer)
  return tracer === undefined ? Layer.empty : Layer.mergeAll(Layer.succeed(Tracer.Tracer)(tracer), spanNames)
}
