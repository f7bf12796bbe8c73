import { describe, expect, it } from "vitest"
import { startApi } from "../support/http.ts"

/** The OpenAPI document the page hands to Scalar, as the page carries it. */
const embeddedDocument = (html: string) => {
  const start = html.lastIndexOf("content: ") + "content: ".length
  return JSON.parse(html.slice(start, html.indexOf("\n", start)))
}

describe("GET /api/v1/docs", () => {
  it("is public, and renders the very document /api/v1/openapi.json serves, with Scalar inlined", async () => {
    const api = await startApi()
    const page = await api.call("GET", "/api/v1/docs")
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toMatch(/^text\/html/)
    expect(page.text).toContain("window.Scalar.createApiReference")
    expect(page.text).not.toMatch(/<script[^>]*\ssrc=/)
    const served = await api.call("GET", "/api/v1/openapi.json")
    expect(embeddedDocument(page.text)).toEqual(served.body)
  })

  it("chooses the bearer scheme for a call tried in secure mode, and shows no developer tools bar", async () => {
    const secure = (await (await startApi()).call("GET", "/api/v1/docs")).text
    expect(secure).toContain('"preferredSecurityScheme":"bearer"')
    expect(secure).toContain('"showDeveloperTools":"never"')
    const open = (await (await startApi({ mode: "open" })).call("GET", "/api/v1/docs")).text
    expect(open).not.toContain('"preferredSecurityScheme":"bearer"')
    expect(open).toContain('"showDeveloperTools":"never"')
  })

  it("describes the mode the server runs in: no credentials in open local mode", async () => {
    const api = await startApi({ mode: "open" })
    const document = embeddedDocument((await api.call("GET", "/api/v1/docs")).text)
    expect(document.components.securitySchemes).toBeUndefined()
    expect(document.paths["/api/v1/team/add"].post.summary).toBe("Add a team member")
  })
})

describe("GET /", () => {
  it("points to the API reference page, to anyone, and is no 404", async () => {
    const api = await startApi()
    const root = await api.call("GET", "/")
    expect(root.status).toBe(302)
    expect(root.headers.get("location")).toBe("/api/v1/docs")
    expect((await api.call("GET", root.headers.get("location") ?? "")).status).toBe(200)
  })
})
