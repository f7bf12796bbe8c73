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
  <A>(page: Page<A, P>) => {
    if (Option.isNone(page.next)) return HttpApiSchema.withHeaders({ body: page.items, headers: {} })
    const [path = "", search = ""] = request.url.split("?", 2)
    const query = new URLSearchParams(search)
    query.set("cursor", Schema.encodeSync(cursor)(page.next.value))
    return HttpApiSchema.withHeaders({
      body: page.items,
      headers: { link: `<${path}?${query.toString()}>; rel="next"` }
    })
  }
