import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { OpenApi } from "effect/http-api"
import { EdgeRequest, type Routed } from "../../adapters/http/edge/routed.ts"
import { openApiOnDemand } from "../../adapters/http/openapi-on-demand.ts"

const under = (mountPath: string): Routed => ({
  requestId: "r",
  path: "/api/v1/openapi.json",
  connection: { mountPath },
  bearer: Option.none(),
  organization: undefined
})

const spec = {
  openapi: "3.1.0",
  info: { title: "Roster", version: "1" },
  paths: {},
  components: { schemas: {}, securitySchemes: {} },
  security: [],
  tags: []
} as unknown as OpenApi.OpenAPISpec

describe("the OpenAPI document", () => {
  it.effect("is built on its first request, not before, and once for every mount path", () =>
    Effect.gen(function* () {
      let built = 0
      const text = openApiOnDemand(() => {
        built++
        return spec
      })
      assert.strictEqual(built, 0, "not built when the route is made")
      assert.deepStrictEqual(JSON.parse(yield* text), spec)
      assert.strictEqual(built, 1)
      assert.strictEqual(yield* text, JSON.stringify(spec))
      const mounted = JSON.parse(yield* Effect.provideService(text, EdgeRequest, under("/roster")))
      assert.deepStrictEqual(mounted.servers, [{ url: "/roster", description: "This server" }])
      assert.deepStrictEqual(mounted.paths, spec.paths)
      assert.strictEqual(built, 1, "built once, whatever the mount path")
    })
  )
})
