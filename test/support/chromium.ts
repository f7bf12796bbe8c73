import { mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { type Browser, chromium, type Page } from "playwright-core"

/** Where the console's tests leave a screenshot of every page (git-ignored; named in docs/testing.md). */
export const screenshotFolder = "reports/console-screenshots"

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/** Debian's Chromium, headless, driven by playwright-core as the docs page's test does. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run"
    ]
  })

/**
 * Everything a page complains of: script errors, failed loads and Content-Security-Policy
 * violations, which the console must never cause.
 */
export const watchComplaints = (page: Page) => {
  const complaints: Array<string> = []
  page.on("pageerror", (error) => complaints.push(`error: ${error.message}`))
  page.on("console", (message) => {
    // A refused API call is logged by Chromium as a failed load; the page shows it as a problem.
    if (message.type() === "error" && !/status of (4\d\d)/u.test(message.text())) {
      complaints.push(`console: ${message.text()}`)
    }
  })
  return complaints
}

interface AxeResult {
  readonly violations: ReadonlyArray<{
    readonly id: string
    readonly impact: string | null
    readonly nodes: ReadonlyArray<{ readonly target: ReadonlyArray<string> }>
  }>
}

/**
 * axe-core's findings of serious or critical impact on the page as it is now. Its source is
 * evaluated through the DevTools protocol, which the page's CSP does not govern, so the console's
 * own policy stays as it is served.
 */
export const seriousViolations = async (page: Page) => {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource)
  const result = (await page.evaluate(() =>
    (window as unknown as { axe: { run: () => Promise<unknown> } }).axe.run()
  )) as AxeResult
  return result.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)
}

export const screenshot = async (page: Page, name: string) => {
  mkdirSync(screenshotFolder, { recursive: true })
  await page.screenshot({ path: `${screenshotFolder}/${name}.png`, fullPage: true })
}
