import { Context, Effect, Layer, Option, Tracer } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { RequestLog } from "../../adapters/http/edge/request-log.ts"
import { makeWebHandler, type WebHandler } from "../../adapters/http/web-handler.ts"
import { webhookVerifierLayer } from "../../adapters/payments/webhook-verifier-layer.ts"
import { RoleLookup } from "../../core/index.ts"
import { testRoster } from "../support/roster.ts"

/** Records the name and parent of every span, otherwise Effect's own in-memory spans. */
const recordingTracer = () => {
  const native = Context.get(Context.empty(), Tracer.Tracer)
  const spans: Array<{ readonly name: string; readonly span: Tracer.Span }> = []
  const tracer = Tracer.make({
    span: (options) => {
      const span = native.span(options)
      spans.push({ name: options.name, span })
      return span
    }
  })
  return { tracer, spans }
}

const handlers: Array<WebHandler> = []
afterAll(async () => {
  await Promise.all(handlers.map((web) => web.dispose()))
})

describe("tracing, when an operator provides a tracer", () => {
  it("traces each request, its use case in a span of its own below the request's", async () => {
    const { tracer, spans } = recordingTracer()
    const parents: Array<Option.Option<Tracer.AnySpan>> = []
    const roster = testRoster({ masterKey: undefined as never })
    // The role lookup notes the span it is called in.
    const observedRoles = Layer.effect(
      RoleLookup,
      Effect.gen(function* () {
        const store = yield* RoleLookup
        return RoleLookup.of({
          ...store,
          page: (after, limit) =>
            Effect.flatMap(Effect.serviceOption(Tracer.ParentSpan), (parent) => {
              parents.push(parent)
              return store.page(after, limit)
            })
        })
      })
    ).pipe(Layer.provide(roster))
    const web = await makeWebHandler(
      Layer.mergeAll(
        roster,
        observedRoles,
        webhookVerifierLayer({ scheme: "unsigned" }),
        Layer.succeed(RequestLog)(() => {}),
        Layer.succeed(Tracer.Tracer)(tracer)
      ),
      { maxBodyBytes: 1024, openLocal: true }
    )
    handlers.push(web)
    const answer = await web.handler(new Request("http://localhost/api/v1/team/roles"))
    expect(answer.status).toBe(200)
    const request = spans.find(({ name }) => name.includes("GET"))
    expect(request?.span.attributes.get("http.response.status_code")).toBe(200)
    expect(parents).toHaveLength(1)
    const useCase = spans.find(({ name }) => name === "team.listRoles")
    expect(Option.getOrUndefined(parents[0] ?? Option.none())).toBe(useCase?.span)
    expect(Option.getOrUndefined(useCase?.span.parent ?? Option.none())).toBe(request?.span)
  })
})
