import { Option, Schema } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiSchema } from "effect/http-api"
import type { Page } from "../../../core/index.ts"

/**
 * Answers a page as its items, with `Link: <…>; rel="next"` (RFC 8288) while more remain: the
 * request's own path and query, its cursor replaced by the one after this page's last item.
 */
export const pageResponse =
  <P, C extends string>(cursor: Schema.Codec<P, C>, request: HttpServerRequest.HttpServerRequest) =>
  <A>(page: Page<A, P>) =>
    HttpApiSchema.withHeaders({ body: page.items, headers: linkOf(cursor, request.url, page) })

/**
 * A page's JSON text and its `Link`, given each item's text (`jsonOnce`): the items' texts
 * joined, encoded once per item rather than once per answer. `url` is the request's path and query.
 */
export const pageText =
  <P, C extends string, A>(cursor: Schema.Codec<P, C>, url: string, textOf: (item: A) => string) =>
  (page: Page<A, P>) => ({
    text: `[${page.items.map(textOf).join(",")}]`,
    headers: linkOf(cursor, url, page)
  })

const linkOf = <P, C extends string>(
  cursor: Schema.Codec<P, C>,
  url: string,
  page: Page<unknown, P>
): Record<string, string> => {
  if (Option.isNone(page.next)) return {}
  const [path = "", search = ""] = url.split("?", 2)
  const query = new URLSearchParams(search)
  query.set("cursor", Schema.encodeSync(cursor)(page.next.value))
  return { link: `<${path}?${query.toString()}>; rel="next"` }
}
