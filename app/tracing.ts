import { ConfigProvider, Effect, Layer, Option, Tracer } from "effect"
import type { HttpServices } from "../adapters/http/index.ts"
import { withPortSpans } from "../adapters/tracing/port-spans.ts"
import { sampledTracer } from "../adapters/tracing/sampled-tracer.ts"
import { PasswordHasher, PaymentProvider, storePorts } from "../core/index.ts"
import type { Settings } from "./settings.ts"

/**
 * The OpenTelemetry variables as the specification reads them: `OTEL_TRACES_EXPORTER` is `otlp`
 * when unset (Effect's reader would otherwise export nothing).
 */
const otlpExporterByDefault = Layer.succeed(ConfigProvider.ConfigProvider)(
  ConfigProvider.fromEnv({
    env: {
      OTEL_TRACES_EXPORTER: "otlp",
      ...Object.fromEntries(
        Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined)
      )
    }
  })
)

export const tracing = (settings: Settings) =>
  Option.match(settings.tracing, {
    onNone: () => Layer.empty,
    onSome: ({ serviceName, sampling }) =>
      Layer.unwrap(
        Effect.promise(async () => {
          const { OtlpSerialization, OtlpTracer } = await import("effect/observability")
          const { FetchHttpClient } = await import("effect/http")
          const exporter = OtlpTracer.layerFromConfig({ resource: { serviceName } }).pipe(
            Layer.provide([OtlpSerialization.layerJson, FetchHttpClient.layer, otlpExporterByDefault])
          )
          return Layer.effect(Tracer.Tracer)(
            Effect.map(Tracer.Tracer, (tracer) => sampledTracer(tracer, sampling))
          ).pipe(Layer.provideMerge(exporter))
        })
      )
  })

/** The ports whose calls are spans of their own when an operator traces: the stores, the hasher, the provider. */
const tracedPorts = [...storePorts, PasswordHasher, PaymentProvider]

/** `services`, their ports traced when an operator traces (see `withPortSpans`), else as they are. */
export const tracedWhenTracing = <E, R>(settings: Settings, services: Layer.Layer<HttpServices, E, R>) =>
  Option.isNone(settings.tracing)
    ? services
    : Layer.effectContext(
        Effect.map(Effect.context<HttpServices>(), (context) => withPortSpans(context, tracedPorts))
      ).pipe(Layer.provide(services))
