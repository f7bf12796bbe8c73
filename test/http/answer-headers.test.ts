import { gunzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { expectProblem, masterKey, password, startApi } from "../support/http.ts"

describe("what every answer carries", () => {
  it("nosniff and no-referrer everywhere; no-store on answers holding tokens or personal data", async () => {
    const api = await startApi()
    await api.call("POST", "/api/v1/team/role/add", { token: masterKey, body: { name: "S", roleKey: "s" } })
    await api.call("POST", "/api/v1/team/add", {
      token: masterKey,
      body: { username: "ada", email: "ada@example.com", password, activestatus: true, roleId: 1 }
    })
    const answers = [
      await api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password } }),
      await api.call("GET", "/api/v1/team/members", { token: masterKey }),
      await api.call("GET", "/api/v1/auth/me", { token: masterKey }),
      await api.call("GET", "/api/v1/team/members", {}),
      await api.call("GET", "/no/such/path", {})
    ]
    expect(answers[0]?.body.token).toMatch(/^rss_/)
    for (const answer of answers) {
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff")
      expect(answer.headers.get("referrer-policy")).toBe("no-referrer")
      expect(answer.headers.get("cache-control")).toBe("no-store")
    }
  })

  it("refuses oversized headers with 431 and a problem body", async () => {
    const api = await startApi()
    const answer = await api.call("GET", "/api/v1/team/roles", {
      token: masterKey,
      headers: { "x-padding": "a".repeat(20 * 1024) }
    })
    expectProblem(answer, 431, "headers_too_large")
    expect(answer.headers.get("content-type")).toBe("application/problem+json")
  })
})

describe("the API reference page", () => {
  const page = async (headers: Record<string, string> = {}) => {
    const api = await startApi()
    const response = await api.web.handler(new Request("http://localhost/api/v1/docs", { headers }))
    return { api, response }
  }

  it("has a Content-Security-Policy allowing its own two inline scripts and nothing from elsewhere", async () => {
    const { response } = await page()
    const policy = response.headers.get("content-security-policy") ?? ""
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy.match(/'sha256-[A-Za-z0-9+/=]{44}'/g)).toHaveLength(2)
    expect(policy).not.toMatch(/https?:|\*/)
  })

  it("is served compressed to clients that take gzip, cacheable, and 304 once they hold it", async () => {
    const { api, response } = await page({ "accept-encoding": "gzip, deflate, br" })
    expect(response.headers.get("content-encoding")).toBe("gzip")
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600")
    const zipped = new Uint8Array(await response.arrayBuffer())
    const html = gunzipSync(zipped).toString("utf8")
    expect(html).toContain("window.Scalar.createApiReference")
    expect(zipped.length).toBeLessThan(html.length / 2)
    const etag = response.headers.get("etag") ?? ""
    expect(etag).toMatch(/^".+"$/)
    const again = await api.web.handler(
      new Request("http://localhost/api/v1/docs", { headers: { "if-none-match": etag } })
    )
    expect(again.status).toBe(304)
    const plain = await api.web.handler(
      new Request("http://localhost/api/v1/docs", { headers: { "accept-encoding": "gzip;q=0" } })
    )
    expect(plain.headers.get("content-encoding")).toBeNull()
    expect(await plain.text()).toBe(html)
  })
})
