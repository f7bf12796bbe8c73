import { Option, Tracer } from "effect"

/** Which requests are traced, as `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` say. */
export interface Sampling {
  /** Whether a caller's `traceparent` decides for its request (the `parentbased_` samplers). */
  readonly parentBased: boolean
  /** The share of the other requests that are traced, from 0 to 1. */
  readonly ratio: number
}

/**
 * `tracer`, deciding which traces are recorded: a request's span by the caller's decision (when
 * parent-based) or by the ratio, and every span below it as its request's, so that a trace is
 * recorded whole or not at all. An unrecorded span costs its creation, never its export.
 */
export const sampledTracer = (tracer: Tracer.Tracer, { parentBased, ratio }: Sampling): Tracer.Tracer =>
  Tracer.make({
    span: (options) => {
      const parent = Option.getOrUndefined(options.parent)
      const sampled =
        parent !== undefined && (parent._tag === "Span" || parentBased)
          ? parent.sampled
          : Math.random() < ratio
      return tracer.span({ ...options, sampled })
    },
    ...(tracer.context === undefined ? {} : { context: tracer.context })
  })
