import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"

const run = promisify(execFile)
const masterKey = "permissions-file-e2e-master-key-long-enough"

const running: Array<RunningServer> = []
const directories: Array<string> = []
afterAll(() => {
  for (const server of running.splice(0)) server.kill()
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

const scratch = () => {
  const directory = mkdtempSync(join(tmpdir(), "roster-permissions-"))
  directories.push(directory)
  return directory
}

const fileOf = (directory: string, name: string, entries: unknown) => {
  const path = join(directory, name)
  writeFileSync(path, JSON.stringify(entries))
  return path
}

const productKeys = async (server: RunningServer) => {
  const answer = await fetch(`${server.url}/api/v1/team/permissions`, {
    headers: { authorization: `Bearer ${masterKey}` }
  })
  expect(answer.status).toBe(200)
  const catalog = (await answer.json()) as ReadonlyArray<{ id: number; key: string; kind: string }>
  return catalog.filter((permission) => permission.kind === "product").map(({ id, key }) => [id, key])
}

const sync = (env: Record<string, string>, ...args: ReadonlyArray<string>) => {
  const [executable, ...script] = scriptCommand("roster") as [string, ...Array<string>]
  return run(executable, [...script, "permissions", ...args], {
    env: { ...process.env, ROSTER_MASTER_KEY: masterKey, ...env }
  }).then(
    ({ stdout }) => ({ code: 0, stdout, stderr: "" }),
    (error: { code: number; stdout: string; stderr: string }) => error
  )
}

describe("the product's permissions from a file", () => {
  it("are declared at every start by ROSTER_PERMISSIONS_FILE, once for two instances, and by permissions sync", {
    timeout: 120_000
  }, async () => {
    const directory = scratch()
    const store = { ROSTER_DATA_DIR: join(directory, "data") }
    const file = fileOf(directory, "permissions.json", [
      { key: "projects.delete", description: "Delete a project" },
      { key: "invoices:read" }
    ])
    const serve = async () => {
      const server = await startServer(scriptCommand("start"), {
        ...store,
        ROSTER_MASTER_KEY: masterKey,
        ROSTER_PERMISSIONS_FILE: file
      })
      running.push(server)
      return server
    }
    // One after the other: two instances declaring at once is the store's contract test; here, that
    // a second start declares nothing twice.
    const a = await serve()
    const b = await serve()
    const declared = await productKeys(a)
    expect(declared).toEqual([
      [1000, "projects.delete"],
      [1001, "invoices:read"]
    ])
    expect(await productKeys(b)).toEqual(declared)

    const more = fileOf(directory, "more.json", [{ key: "reports.export", description: "Export reports" }])
    const synced = await sync(store, "sync", more)
    expect(synced.code).toBe(0)
    expect(synced.stdout).toMatch(/reports\.export is id 1002/u)
    // A key the file leaves out is kept: retiring is explicit.
    expect(await productKeys(b)).toEqual([...declared, [1002, "reports.export"]])
  })

  it("refuse a file with a reserved or malformed key, naming it, before anything is declared", {
    timeout: 120_000
  }, async () => {
    const directory = scratch()
    const store = { ROSTER_DATA_DIR: join(directory, "data") }
    const bad = fileOf(directory, "bad.json", [{ key: "projects.delete" }, { key: "team.delete" }])
    const refused = await sync(store, "sync", bad)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/permissions file .*bad\.json is not valid/u)
    const usage = await sync(store, "retire", bad)
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/roster permissions sync FILE/u)
    const server = await startServer(scriptCommand("start"), { ...store, ROSTER_MASTER_KEY: masterKey })
    running.push(server)
    expect(await productKeys(server)).toEqual([])
  })
})
