import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, screenshot, seriousViolations, watchComplaints } from "../support/chromium.ts"
import { atPhoneWidth, nav, wide } from "../support/console-pages.ts"
import { freePort, type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"

const masterKey = "console-permissions-master-key-long-enough-0123456789"
const password = "a long enough passphrase"

let server: RunningServer
let browser: Browser
let ownersRoleId: number
let auditorsRoleId: number

const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${masterKey}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json().catch(() => undefined) }
}

/** A role granting `permissionIds`, and a member holding it, made with the master key. */
const memberHolding = async (username: string, name: string, permissionIds: ReadonlyArray<number>) => {
  const role = await api("POST", "/api/v1/team/role/add", { name, roleKey: name.toLowerCase() })
  for (const permissionId of permissionIds)
    await api("POST", "/api/v1/team/role-permission-detail", { roleId: role.body.id, permissionId })
  const member = await api("POST", "/api/v1/team/add", {
    username,
    email: `${username}@example.com`,
    password,
    activestatus: true,
    roleId: role.body.id
  })
  expect(member.status, JSON.stringify(member.body)).toBe(200)
  return role.body.id as number
}

beforeAll(async () => {
  const port = await freePort()
  server = await startServer(scriptCommand("start"), { PORT: String(port), ROSTER_MASTER_KEY: masterKey })
  const catalog = (await api("GET", "/api/v1/team/permissions")).body as Array<{ id: number; key: string }>
  ownersRoleId = await memberHolding(
    "olive",
    "Owners",
    catalog.map((permission) => permission.id)
  )
  const auditRead = catalog.find((permission) => permission.key === "audit.read")?.id ?? 0
  auditorsRoleId = await memberHolding("aude", "Auditors", [auditRead])
  browser = await launchChromium()
}, 90_000)
afterAll(async () => {
  await browser?.close()
  server?.kill()
})

const signIn = async (page: Page, username: string) => {
  await page.goto(`${server.url}/console/`)
  const form = page.getByRole("form", { name: "Sign in" })
  await form.getByLabel("Username or e-mail").fill(username)
  await form.getByLabel("Password").fill(password)
  await form.getByRole("button", { name: "Sign in" }).click()
  await page.getByRole("navigation", { name: "Console" }).waitFor()
}

/** The page as it is now, checked with axe-core at 1440 and 390 px, with its screenshots. */
const checked = async (page: Page, shot: string) => {
  await page.waitForLoadState("networkidle")
  expect(await seriousViolations(page), shot).toEqual([])
  await screenshot(page, shot)
  await atPhoneWidth(page, shot)
}

/** The text of each cell of a table's body, row by row. */
const rowsOf = (page: Page, caption: string) =>
  page
    .getByRole("table", { name: caption })
    .locator("tbody tr")
    .evaluateAll((rows) =>
      rows.map((row) => Array.from((row as HTMLTableRowElement).cells).map((cell) => cell.textContent))
    )

describe("the console's permissions (npm start, Chromium)", () => {
  let context: BrowserContext
  let page: Page
  let complaints: Array<string>

  beforeAll(async () => {
    context = await browser.newContext({ viewport: wide })
    page = await context.newPage()
    page.setDefaultTimeout(10_000)
    complaints = watchComplaints(page)
  })
  afterAll(() => context?.close())

  it("lists Roster's permissions, and says how the product's are declared while it has none", async () => {
    await signIn(page, "olive")
    await nav(page, "Permissions")
    await page.getByRole("heading", { level: 1, name: "Permissions" }).waitFor()
    await page.getByText("The product's permissions: none declared yet.").waitFor()
    expect(await page.getByRole("table", { name: "The product's permissions" }).count()).toBe(0)
    const roster = await rowsOf(page, "Roster's permissions")
    expect(roster).toHaveLength(12)
    expect(roster).toContainEqual(["team.read", expect.any(String), "roster", "1"])
    expect(new Set(roster.map((row) => row[2]))).toEqual(new Set(["roster"]))
    await checked(page, "permissions-none-declared")
  })

  it("lists the product's permissions, once declared, with their kind, key and description", async () => {
    const projects = await api("PUT", "/api/v1/permissions/projects.delete", {
      description: "Delete a project"
    })
    expect(projects.status, JSON.stringify(projects.body)).toBe(200)
    await api("PUT", "/api/v1/permissions/invoices:read", { description: "Read the invoices" })
    await page.reload()
    await page.getByRole("table", { name: "The product's permissions" }).waitFor()
    expect(await rowsOf(page, "The product's permissions")).toEqual([
      ["projects.delete", "Delete a project", "product", String(projects.body.id)],
      ["invoices:read", "Read the invoices", "product", String(projects.body.id + 1)]
    ])
    expect(await rowsOf(page, "Roster's permissions")).toHaveLength(12)
    await checked(page, "permissions-declared")
  })

  it("groups the product's permissions in the role editor, with their descriptions; grants only what one holds", async () => {
    // Olive's role lists Roster's permissions and, given now, one of the product's.
    const [projects, invoices] = (await rowsOf(page, "The product's permissions")).map((row) =>
      Number(row[3])
    )
    await api("POST", "/api/v1/team/role-permission-detail", { roleId: ownersRoleId, permissionId: invoices })
    const auditors = async () =>
      (await api("GET", `/api/v1/team/roles/${auditorsRoleId}`)).body.permissionIds as Array<number>
    await nav(page, "Roles")
    await page.getByRole("button", { name: "Manage Auditors" }).click()
    const product = page.getByRole("group", { name: "The product's permissions of Auditors" })
    const invoicesBox = product.getByRole("checkbox", { name: "invoices:read: Read the invoices" })
    const projectsBox = product.getByRole("checkbox", { name: "projects.delete: Delete a project" })
    await invoicesBox.waitFor()
    expect(await product.getByRole("checkbox").count()).toBe(2)
    const rosterGroup = page.getByRole("group", { name: "Roster's permissions of Auditors" })
    expect(await rosterGroup.getByRole("checkbox").count()).toBe(12)
    expect(await rosterGroup.getByText(/projects\.delete|invoices:read/u).count()).toBe(0)
    await checked(page, "role-editor-product-permissions")
    await invoicesBox.check()
    await expect.poll(auditors).toContain(invoices)
    // Above olive's own permissions: refused by the API, the reason shown, the box put back.
    await projectsBox.click()
    await page.getByRole("alert").waitFor()
    await expect.poll(() => projectsBox.isChecked()).toBe(false)
    expect(await auditors()).not.toContain(projects)
    expect(await invoicesBox.isChecked()).toBe(true)
    expect(complaints).toEqual([])
  })

  it("is not offered to a member whose role cannot read the team", async () => {
    await page.getByRole("button", { name: "Sign out" }).click()
    await signIn(page, "aude")
    await page.getByRole("link", { name: "Audit record", exact: true }).waitFor()
    expect(await page.getByRole("link", { name: "Permissions", exact: true }).count()).toBe(0)
    await page.goto(`${server.url}/console/#/permissions`)
    await page.getByRole("heading", { level: 1, name: "Audit record" }).waitFor()
    expect(complaints).toEqual([])
  })
})
