import { readdirSync, readFileSync } from "node:fs"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { startApi } from "../support/http.ts"

/** What `npm run build` (the prepare script, run by `npm ci`) wrote. */
const built = "dist/console"

const scriptsOf = (html: string) => [...html.matchAll(/<script\b[^>]*>/gu)].map((match) => match[0])

describe("the console's files, served by Roster at /console/", () => {
  it("the page: no inline script, a CSP of 'self', asked again each time, 304 while unchanged", async () => {
    const api = await startApi({ consoleDirectory: built })
    const page = await api.call("GET", "/console/")
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    const policy = page.headers.get("content-security-policy") ?? ""
    expect(policy).toMatch(/^default-src 'self'; script-src 'self'; style-src 'self';/)
    expect(policy).not.toMatch(/unsafe|data:|https?:/)
    expect(page.headers.get("cache-control")).toBe("no-cache")
    const scripts = scriptsOf(page.text)
    expect(scripts.length).toBe(1)
    for (const script of scripts) expect(script).toMatch(/ src="assets\/main-[a-z0-9]+\.js"/)
    expect(page.text).not.toMatch(/\sstyle="|\son[a-z]+="|https?:\/\//u)
    const again = await api.call("GET", "/console/", {
      headers: { "if-none-match": page.headers.get("etag") ?? "" }
    })
    expect(again.status).toBe(304)
    expect((await api.call("GET", "/console")).headers.get("location")).toBe("/console/")
  })

  it("the assets: cached for a year under their digests, compressed as asked, 150 KB of script at most", async () => {
    const api = await startApi({ consoleDirectory: built })
    const page = await api.call("GET", "/console/")
    const script = /src="(assets\/[^"]+\.js)"/u.exec(page.text)?.[1] ?? ""
    const file = readFileSync(`${built}/${script}`)
    const plain = await api.call("GET", `/console/${script}`)
    expect(plain.status).toBe(200)
    expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    expect(plain.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expect(plain.headers.get("content-encoding")).toBeNull()
    expect(plain.text.length).toBe(file.toString("utf8").length)
    const raw = async (encoding: string) => {
      const response = await api.web.handler(
        new Request(`http://localhost/console/${script}`, { headers: { "accept-encoding": encoding } })
      )
      return {
        coding: response.headers.get("content-encoding"),
        body: Buffer.from(await response.arrayBuffer())
      }
    }
    const gzip = await raw("gzip")
    expect(gzip.coding).toBe("gzip")
    expect(gunzipSync(gzip.body).equals(file)).toBe(true)
    expect(gzip.body.length).toBeLessThanOrEqual(150 * 1024)
    const brotli = await raw("gzip, br")
    expect(brotli.coding).toBe("br")
    expect(brotliDecompressSync(brotli.body).equals(file)).toBe(true)
    for (const name of readdirSync(`${built}/assets`)) {
      // The build's compressed copies are served in their file's place, never at their own names.
      const copy = /\.(?:gz|br)$/u.test(name)
      expect((await api.call("GET", `/console/assets/${name}`)).status, name).toBe(copy ? 404 : 200)
    }
    expect((await api.call("GET", "/console/assets/nothing-here.js")).status).toBe(404)
  })

  it("the root leads to the console when it is built, to the API reference otherwise", async () => {
    const withConsole = await startApi({ consoleDirectory: built })
    expect((await withConsole.call("GET", "/")).headers.get("location")).toBe("/console/")
    const without = await startApi({ consoleDirectory: "console-never-built" })
    expect((await without.call("GET", "/")).headers.get("location")).toBe("/api/v1/docs")
    expect((await without.call("GET", "/console/")).status).toBe(404)
  })
})
