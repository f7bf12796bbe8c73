// Runs the Express and Hono examples of "Authorizing in your product" (docs/authorizing.md) as
// written, each a real server over HTTP, against Roster's own `npm start`.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { freePort, type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"

const page = readFileSync("docs/authorizing.md", "utf8")
const examples = new Map(
  [...page.matchAll(/```ts file=(\S+)\n([\s\S]*?)```/g)].map(([, name, code]) => [name ?? "", code ?? ""])
)
const masterKey = "authorizing-docs-master-key-long-enough"
const password = "a long enough passphrase"
mkdirSync(join("node_modules", ".cache"), { recursive: true })
// Inside the checkout, so that the examples' imports resolve from its node_modules.
const work = mkdtempSync(join("node_modules", ".cache", "authorizing-"))
const children: Array<ChildProcess> = []
const servers: Array<RunningServer> = []
afterAll(() => {
  for (const child of children.splice(0)) if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
  for (const server of servers.splice(0)) server.kill()
  rmSync(work, { recursive: true, force: true })
})

/** Starts an example as written (its import of the package pointed at this checkout), on a port of its own. */
const runExample = async (name: string, issuer: string) => {
  const code = examples.get(name)
  if (code === undefined) throw new Error(`docs/authorizing.md has no ${name}`)
  const file = join(work, name)
  writeFileSync(
    file,
    code.replaceAll('"roster-service/verify"', JSON.stringify(resolve("adapters/verify/index.ts")))
  )
  const port = await freePort()
  const child = spawn("node_modules/.bin/bun", [file], {
    env: { ...process.env, PORT: String(port), ROSTER_ISSUER: issuer },
    stdio: "ignore",
    detached: true
  })
  children.push(child)
  const url = `http://127.0.0.1:${port}`
  for (const deadline = Date.now() + 20_000; ; ) {
    const up = await fetch(`${url}/`).then(
      () => true,
      () => false
    )
    if (up) return url
    if (Date.now() > deadline) throw new Error(`${name} did not start`)
    await new Promise((done) => setTimeout(done, 100))
  }
}

const roster = async () => {
  const server = await startServer(scriptCommand("start"), {
    ROSTER_MASTER_KEY: masterKey,
    ROSTER_SECRETS_KEY: "authorizing-docs-secrets-key-long-enough"
  })
  servers.push(server)
  const call = (method: string, path: string, body?: unknown, token = masterKey) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    }).then((answer) => answer.json() as Promise<Record<string, unknown>>)
  const signedIn = async (username: string, permissionIds: ReadonlyArray<number>) => {
    const role = await call("POST", "/api/v1/team/role/add", { name: username, roleKey: `${username}-role` })
    for (const permissionId of permissionIds)
      await call("POST", "/api/v1/team/role-permission-detail", { roleId: role.id, permissionId })
    await call("POST", "/api/v1/team/add", {
      username,
      email: `${username}@example.com`,
      password,
      activestatus: true,
      roleId: role.id
    })
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password })
    }).then((answer) => answer.json() as Promise<{ readonly token: string }>)
    return (await call("POST", "/api/v1/auth/token", undefined, login.token)).accessToken as string
  }
  return { server, signedIn }
}

describe("docs/authorizing.md's examples", () => {
  it.each(["express-product.ts", "hono-product.ts"])(
    "%s lets through only a token holding the permission here",
    async (name) => {
      const { server, signedIn } = await roster()
      const billing = await signedIn("ada", [1, 5])
      const reader = await signedIn("bob", [1])
      const product = await runExample(name, server.url)
      const invoices = (organization: string, token?: string) =>
        fetch(`${product}/orgs/${organization}/invoices`, {
          headers: token === undefined ? {} : { authorization: `Bearer ${token}` }
        })
      const allowed = await invoices("default", billing)
      expect(allowed.status).toBe(200)
      expect(await allowed.json()).toMatchObject({ organization: "default", invoices: [] })
      for (const [answer, status, code] of [
        [await invoices("default"), 401, "unauthorized"],
        [await invoices("default", "not-a-token"), 401, "unauthorized"],
        [await invoices("default", reader), 403, "forbidden"],
        [await invoices("acme", billing), 403, "forbidden"]
      ] as const) {
        expect(answer.status).toBe(status)
        expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/u)
        expect(await answer.json()).toMatchObject({ status, code })
      }
    }
  )
})
