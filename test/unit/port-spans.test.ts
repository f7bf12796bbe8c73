import { Context, Effect, Layer, Tracer } from "effect"
import { describe, expect, it } from "vitest"
import { withPortSpans } from "../../adapters/tracing/port-spans.ts"
import { sampledTracer } from "../../adapters/tracing/sampled-tracer.ts"
import { RoleStore } from "../../core/index.ts"
import { testRoster } from "../support/roster.ts"

/** Effect's own in-memory spans, their names noted, recorded as `sampling` decides. */
const recording = (ratio: number) => {
  const native = Context.get(Context.empty(), Tracer.Tracer)
  const names: Array<string> = []
  const noting = Tracer.make({
    span: (options) => {
      names.push(options.name)
      return native.span(options)
    }
  })
  return { tracer: sampledTracer(noting, { parentBased: true, ratio }), names }
}

/** A request's span and, below it, a call of the traced role store. */
const request = (ratio: number) => {
  const { tracer, names } = recording(ratio)
  const program = Effect.gen(function* () {
    const context = withPortSpans(yield* Effect.context<RoleStore>(), [RoleStore])
    yield* Effect.provideContext(
      RoleStore.use((roles) => roles.page(undefined, 10)),
      context
    )
  }).pipe(
    Effect.withSpan("GET /api/v1/team/roles"),
    Effect.provide(Layer.mergeAll(testRoster(), Layer.succeed(Tracer.Tracer)(tracer)))
  )
  return Effect.runPromise(program).then(() => names)
}

describe("spans of port calls", () => {
  it("are made below a recorded request, named for the port and its operation", async () => {
    expect(await request(1)).toEqual(["GET /api/v1/team/roles", "RoleStore.page"])
  })

  it("are not made below a request that is not recorded: it pays for its own span alone", async () => {
    expect(await request(0)).toEqual(["GET /api/v1/team/roles"])
  })
})
