import type { Page } from "playwright-core"
import { expect } from "vitest"
import { screenshot, seriousViolations } from "./chromium.ts"

/** Opens one of the console's pages from its navigation. */
export const nav = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Console" }).getByRole("link", { name, exact: true }).click()

export const wide = { width: 1440, height: 900 }

/** The page at a phone's width (390 px): nothing scrolls sideways; its screenshot; then wide again. */
export const atPhoneWidth = async (page: Page, shot: string) => {
  await page.setViewportSize({ width: 390, height: 844 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth), shot).toBeLessThanOrEqual(390)
  expect(await seriousViolations(page), `${shot} at 390 px`).toEqual([])
  await screenshot(page, `${shot}-390`)
  await page.setViewportSize(wide)
}
