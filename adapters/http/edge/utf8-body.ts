const strictUtf8 = new TextDecoder("utf-8", { fatal: true })

export type BodyRead =
  | { readonly _tag: "Read"; readonly bytes: Uint8Array }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "NotUtf8" }

const concatenate = (chunks: ReadonlyArray<Uint8Array>, size: number) => {
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.length
  }
  return bytes
}

/**
 * Reads a request body, stopping at `limit` bytes (a chunked body has no length to refuse it by),
 * and checks it is UTF-8: read leniently, invalid bytes would be stored as U+FFFD.
 */
export const readUtf8Body = async (request: Request, limit: number): Promise<BodyRead> => {
  if (request.body === null) return { _tag: "Read", bytes: new Uint8Array() }
  const reader = request.body.getReader()
  const chunks: Array<Uint8Array> = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > limit) {
      await reader.cancel()
      return { _tag: "TooLarge" }
    }
    chunks.push(value)
  }
  const bytes = chunks.length === 1 ? (chunks[0] as Uint8Array) : concatenate(chunks, size)
  try {
    strictUtf8.decode(bytes)
  } catch {
    return { _tag: "NotUtf8" }
  }
  return { _tag: "Read", bytes }
}
