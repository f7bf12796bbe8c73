import { existsSync, readdirSync, readFileSync } from "node:fs"
import { extname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { answerCompressed, type CompressedFile, etagOf } from "./content-coding.ts"

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

/** The build's compressed copies of a file, served in its place. */
const compressedCopy = /\.(?:gz|br)$/u

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml"
}

/**
 * A file of the build, with the two compressed copies the build wrote beside it (`.gz`, `.br`), so
 * that nothing is compressed at start. The page names its scripts and styles by their digests (the
 * bundler's file names), so they are cached for a year; the page itself is asked again each time,
 * answered 304 while unchanged.
 */
const fileOf = (file: string, immutable: boolean): CompressedFile => {
  const plain = readFileSync(file)
  return {
    plain,
    gzip: readFileSync(`${file}.gz`),
    brotli: readFileSync(`${file}.br`),
    contentType: contentTypes[extname(file)] ?? "application/octet-stream",
    headers: {
      "content-security-policy": securityPolicy,
      "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
      etag: etagOf(plain),
      vary: "Accept-Encoding"
    }
  }
}

const answer = (file: CompressedFile) =>
  HttpServerRequest.HttpServerRequest.useSync((request) => answerCompressed(file, request.headers))

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
  const page = answer(fileOf(join(directory, "index.html"), false))
  const assets = join(directory, "assets")
  const routes = readdirSync(assets)
    .filter((name) => !compressedCopy.test(name))
    .map((name) =>
      HttpRouter.add("GET", `${consolePath}assets/${name}`, answer(fileOf(join(assets, name), true)))
    )
  const toPage = HttpServerResponse.redirect(consolePath, { status: 301 })
  return Layer.mergeAll(
    HttpRouter.add("GET", consolePath, page),
    HttpRouter.add("GET", "/console", Effect.succeed(toPage)),
    ...routes
  )
}
