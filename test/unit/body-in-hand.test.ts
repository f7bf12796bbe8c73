import { Context, Effect, Exit, Layer, Option } from "effect"
import { HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"
import { describe, expect, it } from "vitest"
import { handOverBody, withBodyRead } from "../../adapters/http/edge/body-in-hand.ts"
import { edgeMiddleware } from "../../adapters/http/edge/edge.ts"
import { EdgeRequest } from "../../adapters/http/edge/routed.ts"

const post = (body: string) => new Request("http://127.0.0.1/api/v1/team/role/add", { method: "POST", body })
const bytesOf = (text: string) => new TextEncoder().encode(text)
const textOf = (buffer: ArrayBuffer) => new TextDecoder().decode(buffer)

describe("the body the edge read", () => {
  it("is handed to the framework's request as a ready value, read without suspending", () => {
    const read = withBodyRead(post("ignored"), bytesOf('{"name":"Readers"}'))
    const request = HttpServerRequest.fromWeb(read)
    handOverBody(request)
    // runSync throws on an effect that suspends: this fails if the framework stopped using the hand-over.
    expect(textOf(Effect.runSync(request.arrayBuffer))).toBe('{"name":"Readers"}')
  })

  it("is handed over by the edge to every routed request", async () => {
    // Answers the body only when it can be read at once, without suspending.
    const echo = HttpRouter.add(
      "POST",
      "/echo",
      HttpServerRequest.HttpServerRequest.use((request) => {
        const read = Effect.runSyncExit(request.arrayBuffer)
        return Effect.succeed(
          HttpServerResponse.text(Exit.isSuccess(read) ? textOf(read.value) : "suspended")
        )
      })
    )
    const web = HttpRouter.toWebHandler(
      Layer.merge(echo, edgeMiddleware).pipe(Layer.provide(HttpServer.layerServices)),
      { disableLogger: true }
    )
    const read = withBodyRead(
      new Request("http://127.0.0.1/echo", { method: "POST", body: "ignored" }),
      bytesOf("in hand")
    )
    const edge = Context.make(EdgeRequest, {
      requestId: "r",
      path: "/echo",
      connection: undefined,
      bearer: Option.none(),
      organization: undefined
    })
    expect(await (await web.handler(read, edge)).text()).toBe("in hand")
    await web.dispose()
  })

  it("stays readable through the web request itself, with the same bytes each time", async () => {
    const read = withBodyRead(post("ignored"), bytesOf("[1,2]").subarray(1, 4))
    expect(textOf(await read.arrayBuffer())).toBe("1,2")
    expect(textOf(await read.arrayBuffer())).toBe("1,2")
  })

  it("can be read again onto the same request, as the idempotency layer does", () => {
    const read = withBodyRead(withBodyRead(post("ignored"), bytesOf("first")), bytesOf("second"))
    const request = HttpServerRequest.fromWeb(read)
    handOverBody(request)
    expect(textOf(Effect.runSync(request.arrayBuffer))).toBe("second")
  })

  it("leaves a request the edge did not read to be read from its own body", async () => {
    const request = HttpServerRequest.fromWeb(post('{"name":"Writers"}'))
    handOverBody(request)
    expect(textOf(await Effect.runPromise(request.arrayBuffer))).toBe('{"name":"Writers"}')
  })
})
