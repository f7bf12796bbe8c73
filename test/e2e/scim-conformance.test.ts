import { execFile, execFileSync } from "node:child_process"
import { promisify } from "node:util"
import { afterEach, describe, expect, it } from "vitest"
import { type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"
import { mongoUri } from "../support/stores.ts"

const run = promisify(execFile)
const masterKey = "scim-conformance-master-key-long-enough-01"
const venv = "tools/scim/.venv/bin"

const cleanup: Array<() => void> = []
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step()
})

const call = async (server: RunningServer, path: string, body: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${masterKey}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  expect(response.status, await response.clone().text()).toBe(200)
  return (await response.json()) as Record<string, unknown>
}

/**
 * `npm start` with a role holding `team.read` alone (the default role of provisioned members, as the
 * contract has it for this proof) and a SCIM token of the default organisation.
 */
const provisionedService = async (env: Record<string, string>) => {
  const server = await startServer(scriptCommand("start"), { ROSTER_MASTER_KEY: masterKey, ...env })
  cleanup.push(server.kill)
  const role = await call(server, "/api/v1/team/role/add", {
    name: "Reader",
    roleKey: "reader",
    activeStatus: true
  })
  await call(server, "/api/v1/team/role-permission-detail", { roleId: role.id, permissionId: 1 })
  const { token } = await call(server, "/api/v1/organization/scim-tokens", { name: "Conformance" })
  return { base: `${server.url}/scim/v2`, token: String(token) }
}

const conformance = async ({ base, token }: { readonly base: string; readonly token: string }) => {
  const tester = await run(`${venv}/python`, ["tools/scim/check_server.py", base, token]).catch(
    (failed: { stdout: string }) => ({ stdout: failed.stdout })
  )
  expect(tester.stdout).toMatch(/scim2-tester: [1-9]\d* succeeded, 0 failed/)
  const sanity = await run(`${venv}/scim-sanity`, [
    "probe",
    base,
    "--token",
    token,
    "--i-accept-side-effects",
    "--json-output"
  ]).catch((failed: { stdout: string }) => ({ stdout: failed.stdout }))
  const report = JSON.parse(sanity.stdout) as {
    mode: string
    summary: { passed: number; failed: number; errors: number; warnings: number }
    results: ReadonlyArray<{ status: string; name: string; message?: string }>
  }
  expect(report.mode).toBe("strict")
  expect(report.results.filter((result) => ["fail", "error", "warn"].includes(result.status))).toEqual([])
  expect(report.summary.passed).toBeGreaterThan(20)
}

describe("SCIM conformance tools (scim2-tester, scim-sanity) against npm start", () => {
  execFileSync("bash", ["tools/scim/setup.sh"], { stdio: "inherit" })

  it("pass on SQLite, the default store, with no failure", { timeout: 240_000 }, async () => {
    await conformance(await provisionedService({}))
  })

  it("pass on MongoDB with no failure", { timeout: 240_000 }, async () => {
    const database = `roster_scim_${crypto.randomUUID().replaceAll("-", "")}`
    await conformance(await provisionedService({ MONGODB_URI: mongoUri(), MONGODB_DB: database }))
  })
})
