import { createHash } from "node:crypto"
import { HttpServerResponse } from "effect/http"

/** Whether `Accept-Encoding` takes `coding`: named (or `*`) without `q=0`. */
export const acceptsCoding = (acceptEncoding: string | undefined, coding: "gzip" | "br") =>
  (acceptEncoding ?? "").split(",").some((entry) => {
    const [named = "", ...parameters] = entry.split(";").map((part) => part.trim().toLowerCase())
    const refused = parameters.some((parameter) => /^q=0(?:\.0{0,3})?$/u.test(parameter))
    return (named === coding || named === "*") && !refused
  })

/** A strong ETag of `bytes`: its SHA-256, shortened. */
export const etagOf = (bytes: Uint8Array) =>
  `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`

/** A file kept compressed, whose headers hold its ETag. */
export interface CompressedFile {
  readonly plain: Uint8Array
  readonly gzip: Uint8Array
  readonly brotli?: Uint8Array
  readonly contentType: string
  readonly headers: Readonly<Record<string, string>> & { readonly etag: string }
}

/** `file` as a request asks for it: 304 while its ETag matches, else in the best coding it takes. */
export const answerCompressed = (
  file: CompressedFile,
  requestHeaders: Readonly<Record<string, string | undefined>>
) => {
  if (requestHeaders["if-none-match"] === file.headers.etag) {
    return HttpServerResponse.empty({ status: 304, headers: file.headers })
  }
  const accepted = requestHeaders["accept-encoding"]
  const [body, coding] =
    file.brotli !== undefined && acceptsCoding(accepted, "br")
      ? [file.brotli, "br"]
      : acceptsCoding(accepted, "gzip")
        ? [file.gzip, "gzip"]
        : [file.plain, undefined]
  return HttpServerResponse.uint8Array(body, {
    contentType: file.contentType,
    headers: coding === undefined ? file.headers : { ...file.headers, "content-encoding": coding }
  })
}
