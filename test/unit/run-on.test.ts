import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, References } from "effect"
import { RequestLog } from "../../adapters/http/edge/request-log.ts"
import { runOn } from "../../adapters/http/handed-services.ts"
import { webhookVerifierLayer } from "../../adapters/payments/webhook-verifier-layer.ts"
import { CurrentRequestId, RoleStore } from "../../core/index.ts"
import { testRoster } from "../support/roster.ts"

const services = Layer.mergeAll(
  testRoster(),
  webhookVerifierLayer({ scheme: "unsigned" }),
  Layer.succeed(RequestLog)(() => {})
)

const SetByMiddleware = Context.Reference<string>("test/SetByMiddleware", { defaultValue: () => "absent" })

describe("a use case run on the services", () => {
  it.effect("sees what the request carries: its references, its id, its log annotations", () =>
    Effect.gen(function* () {
      const context = yield* Layer.build(services)
      const seen = yield* runOn(context)(
        Effect.gen(function* () {
          yield* RoleStore
          return {
            reference: yield* SetByMiddleware,
            requestId: yield* CurrentRequestId,
            annotations: yield* References.CurrentLogAnnotations
          }
        })
      ).pipe(
        Effect.provideService(SetByMiddleware, "set"),
        Effect.provideService(CurrentRequestId, "request-1"),
        Effect.annotateLogs("tenant", "acme")
      )
      assert.deepStrictEqual(seen, {
        reference: "set",
        requestId: "request-1",
        annotations: { tenant: "acme" }
      })
    }).pipe(Effect.scoped)
  )
})
