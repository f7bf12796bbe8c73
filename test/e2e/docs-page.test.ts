import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openApiDocument } from "../../adapters/http/api/openapi-document.ts"
import { launchChromium } from "../support/chromium.ts"
import { type RunningServer, startServer } from "../support/server-process.ts"

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  // Secure mode: the page is public like the OpenAPI document, so no token is sent.
  server = await startServer(["npm", "start", "--silent"], {
    ROSTER_MASTER_KEY: "docs-test-master-key-with-enough-entropy"
  })
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  server?.kill()
})

describe("the API reference at /api/v1/docs, in headless Chromium", () => {
  it("renders every operation of the OpenAPI document, with nothing fetched from elsewhere", async () => {
    const page = await browser.newPage()
    const elsewhere: Array<string> = []
    const errors: Array<string> = []
    // Anything not from this server is refused and remembered: the page must work offline.
    await page.route("**/*", (route) => {
      const url = route.request().url()
      if (url.startsWith(server.url)) return route.continue()
      elsewhere.push(url)
      return route.abort()
    })
    page.on("pageerror", (error) => errors.push(error.message))
    const response = await page.goto(`${server.url}/api/v1/docs`)
    expect(response?.status()).toBe(200)
    expect(await page.title()).toBe("Roster")
    const summaries = Object.values(openApiDocument({ openLocal: true }).paths).flatMap((item) =>
      Object.values(item as Record<string, { readonly summary: string }>).map(
        (operation) => operation.summary
      )
    )
    const lastSummary = summaries.at(-1) ?? ""
    await page.getByText(lastSummary).first().waitFor({ timeout: 20_000 })
    // Operations render as the page lays them out, not all at once: wait for a path of the first group.
    const path = "/api/v1/team/role-permission-detail/{id}"
    await page.getByText(path).first().waitFor({ timeout: 20_000 })
    // What is rendered, not textContent: that would also read the document inside the page's script.
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is checked
    const text = await page.locator("body").innerText()
    for (const summary of summaries) expect(text, summary).toContain(summary)
    expect(text).toContain(path)
    expect(elsewhere).toEqual([])
    expect(errors).toEqual([])
  })
})
