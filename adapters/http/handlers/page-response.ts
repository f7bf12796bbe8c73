import { Option, Schema } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiSchema } from "effect/http-api"
import type { Page } from "../../../core/index.ts"
import { jsonAnswer } from "../json-once.ts"

/**
 * Answers a page as its items, with `Link: <…>; rel="next"` (RFC 8288) while more remain: the
 * request's own path and query, its cursor replaced by the one after this page's last item. Given
 * each item's JSON text (`jsonOnce`), the page is answered as the items' texts joined, encoded
 * once per item rather than once per answer.
 */
export const pageResponse =
  <P, C extends string, A>(
    cursor: Schema.Codec<P, C>,
    request: HttpServerRequest.HttpServerRequest,
    textOf?: (item: A) => string
  ) =>
  (page: Page<A, P>) => {
    const headers = Option.isNone(page.next) ? {} : { link: nextLink(cursor, request, page.next.value) }
    if (textOf === undefined) return HttpApiSchema.withHeaders({ body: page.items, headers })
    return jsonAnswer(`[${page.items.map(textOf).join(",")}]`, headers)
  }

const nextLink = <P, C extends string>(
  cursor: Schema.Codec<P, C>,
  request: HttpServerRequest.HttpServerRequest,
  next: P
) => {
  const [path = "", search = ""] = request.url.split("?", 2)
  const query = new URLSearchParams(search)
  query.set("cursor", Schema.encodeSync(cursor)(next))
  return `<${path}?${query.toString()}>; rel="next"`
}
