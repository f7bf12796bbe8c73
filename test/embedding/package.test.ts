// Embeds Roster as a user does, following the Embedding page (docs/embedding.md) to the letter: pack it,
// install the tarball into a fresh project, compile that project with tsc and run its tests.
import { exec } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer } from "../support/server-process.ts"

const section = readFileSync("docs/embedding.md", "utf8")
const pkg = JSON.parse(readFileSync("package.json", "utf8"))
const tarball = `${pkg.name}-${pkg.version}.tgz`

/** The page's shell block, one command a line, without its comments. */
const pageCommands = (section.match(/```sh\n([\s\S]*?)```/)?.[1] ?? "")
  .split("\n")
  .map((line) => line.replace(/#.*$/, "").trim())
  .filter((line) => line !== "")

/** The project's files as the page shows them (fences like ```ts file=src/core.test.ts). */
const pageFiles = [...section.matchAll(/```\w+ file=(\S+)\n([\s\S]*?)```/g)].map(
  ([, path, content]) => [path ?? "", content ?? ""] as const
)

const run = promisify(exec)
const work = mkdtempSync(join(tmpdir(), "roster-embedding-"))
const project = join(work, "project")
/** The page writes /tmp; the test keeps everything in its own directory. */
const here = (command: string) => command.replaceAll("/tmp", work)
/** Flags that change where npm looks first and what it reports, not what it installs. */
const quietly = (command: string) =>
  command.startsWith("npm install") ? `${command} --prefer-offline --no-audit --no-fund` : command

const [pack, install, installDev, compile, runCore, runClient] = pageCommands
let packed: { files: ReadonlyArray<{ path: string }> }

beforeAll(async () => {
  const [report] = JSON.parse((await run(`${here(pack ?? "")} --json --silent`)).stdout)
  packed = report
  mkdirSync(project)
  for (const [path, content] of pageFiles) {
    mkdirSync(dirname(join(project, path)), { recursive: true })
    writeFileSync(join(project, path), content)
  }
  for (const command of [install, installDev, compile])
    await run(quietly(here(command ?? "")), { cwd: project })
}, 300_000)

afterAll(() => rmSync(work, { recursive: true, force: true }))

describe("Roster embedded as the Embedding page says, from its packed tarball", () => {
  it("follows the page's commands, and ships only the build: JavaScript and declarations", () => {
    expect(pageCommands).toEqual([
      "npm pack --pack-destination /tmp",
      `npm install /tmp/${tarball} effect@^4.1.0`,
      "npm install --save-dev typescript@5.9 @types/node@22",
      "npx tsc",
      "node --test dist/core.test.js",
      "ROSTER_URL=http://127.0.0.1:3000 node --test dist/client.test.js"
    ])
    expect(pageFiles.map(([path]) => path)).toEqual([
      "package.json",
      "tsconfig.json",
      "src/core.test.ts",
      "src/client.test.ts"
    ])
    const files = packed.files.map((file) => file.path)
    expect(files.filter((file) => !file.startsWith("dist/")).sort()).toEqual([
      "LICENSE",
      "README.md",
      "package.json"
    ])
    expect(files.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))).toEqual([])
    // No source maps: they would point at sources the tarball does not hold.
    expect(files.filter((file) => file.endsWith(".map"))).toEqual([])
    expect(pkg.name).toBe("roster-service")
    const targets = Object.values(pkg.exports as Record<string, string | Record<string, string>>).flatMap(
      (target) => (typeof target === "string" ? [target] : Object.values(target))
    )
    for (const target of targets) expect(files, target).toContain(target.slice(2))
  })

  it("installs one copy of effect, the project's, and no driver it did not ask for", () => {
    const installed = join(project, "node_modules")
    expect(existsSync(join(installed, "effect"))).toBe(true)
    expect(existsSync(join(installed, "roster-service", "node_modules", "effect"))).toBe(false)
    for (const driver of ["mongodb", "pg", "stripe"])
      expect(existsSync(join(installed, driver)), driver).toBe(false)
  })

  it("runs the project's test of the core on the in-memory adapters", async () => {
    const { stdout } = await run(runCore ?? "", { cwd: project })
    expect(stdout).toMatch(/# pass 1\b/)
    expect(stdout).toMatch(/# fail 0\b/)
  })

  it("runs the project's test of the client against `npm start`", async () => {
    const server = await startServer(["npm", "start", "--silent"])
    try {
      const command = (runClient ?? "").replace("http://127.0.0.1:3000", server.url)
      const { stdout } = await run(command, { cwd: project })
      expect(stdout).toMatch(/# pass 1\b/)
      expect(stdout).toMatch(/# fail 0\b/)
    } finally {
      server.kill()
    }
  })

  it("imports every entry that needs no driver on Bun and on Deno as well", async () => {
    const entries = [
      "core",
      "composition",
      "adapters/memory",
      "adapters/crypto",
      "adapters/sqlite",
      "adapters/http",
      "api",
      "client"
    ]
    writeFileSync(
      join(project, "imports.mjs"),
      `${entries.map((entry, i) => `import * as entry${i} from "roster-service/${entry}"`).join("\n")}\n` +
        `console.log(JSON.stringify([${entries.map((_, i) => `Object.keys(entry${i}).length`).join(", ")}]))\n`
    )
    const bin = join(process.cwd(), "node_modules", ".bin")
    for (const runtime of [
      `${bin}/bun imports.mjs`,
      `${bin}/deno run --allow-read --allow-env imports.mjs`
    ]) {
      const { stdout } = await run(runtime, { cwd: project })
      const counts: Array<number> = JSON.parse(stdout)
      expect(counts, runtime).toHaveLength(entries.length)
      for (const count of counts) expect(count, runtime).toBeGreaterThan(0)
    }
  })

  it("serves the handler from node:http through toNodeHandler with nothing but the core's defaults, no optional peer installed", async () => {
    writeFileSync(
      join(project, "node-host.mjs"),
      `import { createServer } from "node:http"
import { Effect, Layer } from "effect"
import { builtConsoleDirectory, makeWebHandler, toNodeHandler } from "roster-service/adapters/http"
import { stripeProviderLayer } from "roster-service/adapters/payments"
import { servedInMemory } from "roster-service/composition"
const key = "k".repeat(32)
const web = await makeWebHandler(servedInMemory({ masterKey: key }), { maxBodyBytes: 65536, openLocal: false, corsOrigins: [], consoleDirectory: builtConsoleDirectory() })
const server = createServer(toNodeHandler(web))
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
const base = "http://127.0.0.1:" + server.address().port
const auth = { authorization: "Bearer " + key, "content-type": "application/json" }
const added = await fetch(base + "/api/v1/team/role/add", { method: "POST", headers: auth, body: JSON.stringify({ name: "Ops", roleKey: "ops" }) })
const roles = await (await fetch(base + "/api/v1/team/roles", { headers: auth })).json()
const refused = await fetch(base + "/api/v1/team/roles")
const page = await fetch(base + "/console/")
const script = /src="(assets[^"]+)"/.exec(await page.text())?.[1]
const asset = await fetch(base + "/console/" + script)
const stripe = await Effect.runPromise(Layer.launch(stripeProviderLayer({ secretKey: key, apiUrl: undefined, timeout: 1000, successUrl: base, cancelUrl: base }))).catch(String)
console.log(JSON.stringify({ added: added.status, role: (await added.json()).roleKey, roles: roles.length, refused: refused.status, problem: refused.headers.get("content-type"), console: [page.status, asset.status, asset.headers.get("cache-control")], stripe }))
server.close()
await web.dispose()
`
    )
    const { stdout } = await run("node node-host.mjs", { cwd: project })
    const outcome = JSON.parse(stdout)
    expect(outcome).toMatchObject({ added: 200, role: "ops", roles: 1, refused: 401 })
    // The console ships in the package, and the handler serves it from there.
    expect(outcome.console).toEqual([200, 200, "public, max-age=31536000, immutable"])
    expect(outcome.problem).toMatch(/^application\/problem\+json/)
    expect(outcome.stripe).toContain("needs the package stripe, which is not installed: npm install stripe")
  })

  it("runs the owner command from the installed package, twice, changing nothing the second time", async () => {
    const bin = join(process.cwd(), "node_modules", ".bin")
    const env = {
      ...process.env,
      ROSTER_DATA_DIR: join(work, "owner-data"),
      ROSTER_OWNER_PASSWORD: "a long passphrase"
    }
    const owner = "roster owner --username ada --email ada@example.com"
    const first = await run(`${bin}/bun node_modules/.bin/${owner}`, { cwd: project, env })
    expect(first.stdout).toMatch(
      /^default: Owner role \d+ holds every permission; ada \(\S+\) is made a member in it/
    )
    const again = await run(`${bin}/deno run -A node_modules/.bin/${owner}`, { cwd: project, env })
    expect(again.stdout).toMatch(/ada \(\S+\) is already a member in it: nothing changed/)
    // Whatever Node runs it (Node 20 has no SQLite driver), the command runs on to its end: under
    // Bun, found on the PATH as where bunx runs.
    const withBun = { ...env, PATH: `${bin}:${process.env.PATH ?? ""}` }
    const byNpx = await run(`npx ${owner}`, { cwd: project, env: withBun })
    expect(byNpx.stdout).toMatch(/ada \(\S+\) is already a member in it: nothing changed/)
    const byBunx = await run(`${bin}/bunx ${owner}`, { cwd: project, env: withBun })
    expect(byBunx.stdout).toMatch(/nothing changed/)
  })
})
