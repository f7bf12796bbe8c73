import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { brotliCompressSync, gzipSync } from "node:zlib"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { acceptsCoding } from "./content-coding.ts"

export const consolePath = "/console/"

/**
 * The console's own files and the API, nothing else: no inline script or style, no frames, no
 * plugins, forms posted nowhere but here.
 */
const securityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".map": "application/json"
}

interface Asset {
  readonly plain: Uint8Array
  readonly gzip: Uint8Array
  readonly brotli: Uint8Array
  readonly headers: Record<string, string>
}

/**
 * A file compressed both ways once, at start. The page names its scripts and styles by their
 * digests (the bundler's file names), so they are cached for a year; the page itself is asked
 * again each time, answered 304 while unchanged.
 */
const assetOf = (file: string, immutable: boolean): Asset => {
  const plain = readFileSync(file)
  const extension = file.slice(file.lastIndexOf("."))
  return {
    plain,
    gzip: gzipSync(plain, { level: 9 }),
    brotli: brotliCompressSync(plain),
    headers: {
      "content-type": contentTypes[extension] ?? "application/octet-stream",
      "content-security-policy": securityPolicy,
      "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
      etag: `"${createHash("sha256").update(plain).digest("base64url").slice(0, 27)}"`,
      vary: "Accept-Encoding"
    }
  }
}

const answer = (asset: Asset) =>
  HttpServerRequest.HttpServerRequest.useSync((request) => {
    if (request.headers["if-none-match"] === asset.headers.etag) {
      return HttpServerResponse.empty({ status: 304, headers: asset.headers })
    }
    const accepted = request.headers["accept-encoding"]
    const [body, coding] = acceptsCoding(accepted, "br")
      ? [asset.brotli, "br"]
      : acceptsCoding(accepted, "gzip")
        ? [asset.gzip, "gzip"]
        : [asset.plain, undefined]
    return HttpServerResponse.uint8Array(body, {
      headers: coding === undefined ? asset.headers : { ...asset.headers, "content-encoding": coding }
    })
  })

/** Whether `directory` holds a built console (`npm run build`). */
export const isConsoleBuilt = (directory: string) =>
  existsSync(join(directory, "index.html")) && existsSync(join(directory, "assets"))

/**
 * Where `npm run build` put the console, if it did: beside this module in the installed package
 * (`dist/adapters/http` → `dist/console`), or in `dist/` of a checkout running from its sources
 * (`adapters/http`) or from the bundle `npm run build:server` writes (`build/`).
 */
export const builtConsoleDirectory = (): string | undefined =>
  ["../../console/", "../../dist/console/", "../dist/console/"]
    .map((relative) => fileURLToPath(new URL(relative, import.meta.url)))
    .find(isConsoleBuilt)

/**
 * The console, read from `directory` (what `npm run build` wrote) once at start: its page at
 * `/console/` and its assets under `/console/assets/`.
 */
export const consoleRoutes = (directory: string) => {
  const page = answer(assetOf(join(directory, "index.html"), false))
  const assets = join(directory, "assets")
  const routes = readdirSync(assets).map((name) =>
    HttpRouter.add("GET", `${consolePath}assets/${name}`, answer(assetOf(join(assets, name), true)))
  )
  const toPage = HttpServerResponse.redirect(consolePath, { status: 301 })
  return Layer.mergeAll(
    HttpRouter.add("GET", consolePath, page),
    HttpRouter.add("GET", "/console", Effect.succeed(toPage)),
    ...routes
  )
}
