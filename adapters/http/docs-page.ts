import { createHash } from "node:crypto"
import { gzipSync } from "node:zlib"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { HttpApiScalar } from "effect/http-api"
import type { documentedApi } from "./api/openapi-document.ts"
import { docsPath } from "./api/roster-api.ts"
import { answerCompressed, type CompressedFile, etagOf } from "./content-coding.ts"
import { oncePerMount } from "./edge/routed.ts"

/** Where the page's own app is asked for it: only the path routes there. */
const pageUrl = new URL(docsPath, "http://roster.invalid").href

const inlineScripts = (html: string) =>
  [...html.matchAll(/<script>([\s\S]*?)<\/script>/gu)].map((match) => match[1] ?? "")

/**
 * The page runs its two inline scripts (Scalar's bundle and the call that starts it), named by
 * their digests, and nothing else: no script from elsewhere, no frames, no forms, no plugins.
 * Scalar sets styles at run time, so styles may be inline; it fetches nothing but this service.
 */
const securityPolicyOf = (html: string) => {
  const scripts = inlineScripts(html).map(
    (script) => `'sha256-${createHash("sha256").update(script).digest("base64")}'`
  )
  return [
    "default-src 'none'",
    `script-src ${scripts.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")
}

/**
 * Scalar's settings: the bearer scheme chosen for a reader who tries a call in secure mode (open
 * local mode has none), and no developer tools bar, which is Scalar's own, not the API's.
 * `showDeveloperTools` is a setting of the Scalar this Effect inlines that its types do not name yet.
 */
const pageSettings = (secure: boolean, mountPath: string): HttpApiScalar.ScalarConfig =>
  ({
    withDefaultFonts: false,
    defaultOpenAllTags: true,
    showDeveloperTools: "never",
    ...(secure ? { authentication: { preferredSecurityScheme: "bearer" } } : {}),
    // Under a host's path, a reader's calls go there; Scalar puts the page's origin before it.
    ...(mountPath === "" ? {} : { servers: [{ url: mountPath, description: "This server" }] })
  }) as HttpApiScalar.ScalarConfig

/**
 * Rendered once by Effect's own Scalar route (which inlines Scalar's script, 3 MB, so the page needs
 * nothing from the network), then kept compressed: an instance that never serves the page never
 * pays for it. Cacheable for an hour under an ETag, since it changes only with a new version.
 */
const renderPage = async (
  api: ReturnType<typeof documentedApi>,
  secure: boolean,
  mountPath: string
): Promise<CompressedFile> => {
  const app = HttpRouter.toWebHandler(
    HttpApiScalar.layer(api, {
      path: docsPath,
      scalar: pageSettings(secure, mountPath)
    }),
    { disableLogger: true }
  )
  try {
    const text = await (await app.handler(new Request(pageUrl))).text()
    const html = new TextEncoder().encode(text)
    return {
      plain: html,
      gzip: gzipSync(html),
      contentType: "text/html; charset=utf-8",
      headers: {
        "content-security-policy": securityPolicyOf(text),
        "cache-control": "public, max-age=3600",
        etag: etagOf(html),
        vary: "Accept-Encoding"
      }
    }
  } finally {
    await app.dispose()
  }
}

/**
 * The API reference page, rendered by Scalar from the OpenAPI document on its first request under
 * each path a host mounts Roster at.
 */
export const docsPageRoute = (api: ReturnType<typeof documentedApi>, secure: boolean) => {
  const rendered = oncePerMount((mountPath) => renderPage(api, secure, mountPath))
  return HttpRouter.add(
    "GET",
    docsPath,
    HttpServerRequest.HttpServerRequest.use((request) =>
      rendered.pipe(
        Effect.flatMap((page) => Effect.promise(() => page)),
        Effect.map((page) => answerCompressed(page, request.headers))
      )
    )
  )
}
