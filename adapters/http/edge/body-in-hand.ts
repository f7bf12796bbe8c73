import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"

const bodiesRead = new WeakMap<Request, ArrayBuffer>()
const textsRead = new WeakMap<Request, string>()

/**
 * The request goes on with its body already read: its `arrayBuffer()` answers the bytes read. A new
 * Request around those bytes cost a POST ~7 µs on Bun (measured under wrk).
 */
export const withBodyRead = (request: Request, bytes: Uint8Array, text?: string) => {
  if (text !== undefined) textsRead.set(request, text)
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
  const buffer = (whole ? bytes.buffer : bytes.slice().buffer) as ArrayBuffer
  Object.defineProperty(request, "arrayBuffer", { value: () => Promise.resolve(buffer), configurable: true })
  bodiesRead.set(request, buffer)
  return request
}

/**
 * Hands the body the edge read to the framework's request as a ready value. Otherwise decoding the
 * payload reads it through `arrayBuffer()` under an abort signal, suspending the request's fiber
 * on a promise: ~6 µs of every POST. The framework caches that read in `arrayBufferEffect`; should
 * a later version rename the field, the body is still read, from memory, only slower (a test says so).
 */
export const handOverBody = (request: HttpServerRequest.HttpServerRequest) => {
  const body = request.source instanceof Request ? bodiesRead.get(request.source) : undefined
  if (body !== undefined) Object.assign(request, { arrayBufferEffect: Effect.succeed(body) })
}

/** The body the edge read of `request` and found UTF-8, as text, if it read one. */
export const bodyTextOf = (request: Request): string | undefined => textsRead.get(request)
