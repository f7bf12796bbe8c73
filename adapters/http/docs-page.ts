import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiScalar } from "effect/http-api"
import type { documentedApi } from "./api/openapi-document.ts"
import { docsPath } from "./api/roster-api.ts"

/** Where the page's own app is asked for it: only the path routes there. */
const pageUrl = new URL(docsPath, "http://roster.invalid").href

interface DocsPage {
  readonly handler: (request: Request) => Promise<Response>
  readonly dispose: () => Promise<void>
}

/**
 * The API reference page, rendered by Scalar from the OpenAPI document. Effect bundles Scalar's
 * script (3 MB), so the page needs nothing from the network; Scalar's web fonts are left out for
 * the same reason. The page is built by Effect's own Scalar route, in an app of its own made on
 * the first request: made at start, it kept 11 MB for the life of every instance, most of which
 * never serve it.
 */
export const docsPageRoute = (api: ReturnType<typeof documentedApi>) =>
  Layer.unwrap(
    Effect.gen(function* () {
      let page: DocsPage | undefined
      yield* Effect.addFinalizer(() => (page === undefined ? Effect.void : Effect.promise(page.dispose)))
      const pageOf = () => {
        page ??= HttpRouter.toWebHandler(
          HttpApiScalar.layer(api, {
            path: docsPath,
            scalar: { withDefaultFonts: false, defaultOpenAllTags: true }
          }),
          { disableLogger: true }
        )
        return page
      }
      return HttpRouter.add(
        "GET",
        docsPath,
        Effect.map(
          Effect.promise(() => pageOf().handler(new Request(pageUrl))),
          HttpServerResponse.fromWeb
        )
      )
    })
  )
