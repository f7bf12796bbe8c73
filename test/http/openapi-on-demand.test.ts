import { describe, expect, it, vi } from "vitest"
import { startApi } from "../support/http.ts"

// Counts the documents built: the service's own module imports this one, so the count is its.
const built = vi.hoisted(() => ({ documents: 0 }))
vi.mock("effect/http-api", async (importOriginal) => {
  const original = await importOriginal<typeof import("effect/http-api")>()
  const fromApi: typeof original.OpenApi.fromApi = (api, options) => {
    built.documents++
    return original.OpenApi.fromApi(api, options)
  }
  return { ...original, OpenApi: { ...original.OpenApi, fromApi } }
})

describe("the OpenAPI document", () => {
  it("is built on its first request, not at start, and once", async () => {
    const api = await startApi()
    expect((await api.call("GET", "/health/live")).status).toBe(200)
    expect(built.documents).toBe(0)
    const first = await api.call("GET", "/api/v1/openapi.json")
    expect(first.status).toBe(200)
    expect(first.body.openapi).toMatch(/^3\./)
    expect(built.documents).toBe(1)
    const again = await api.call("GET", "/api/v1/openapi.json")
    expect(again.text).toBe(first.text)
    expect(built.documents).toBe(1)
  })
})
