// Roster inside a Next.js app as the Embedding page shows it: the packed package installed beside
// `next`, the page's two files written as they are, `next build`, then `next start`.
import { type ChildProcess, exec, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectServedUnder } from "../support/mounted.ts"
import { samlIdp, type TestSamlIdp } from "../support/saml-idp.ts"
import { freePort } from "../support/server-process.ts"

/** The versions the page was tested with; React is Next's peer. */
const next = "next@16.4.6"
const react = ["react@19.3.1", "react-dom@19.3.1"]
const effect = `effect@${JSON.parse(readFileSync("node_modules/effect/package.json", "utf8")).version}`

const pageFiles = [
  ...readFileSync("docs/embedding.md", "utf8").matchAll(/```\w+ next=(\S+)\n([\s\S]*?)```/gu)
].map(([, path, content]) => [path ?? "", content ?? ""] as const)

const masterKey = "nextjs-master-key-long-enough-0123456789"
const run = promisify(exec)
const work = mkdtempSync(join(tmpdir(), "roster-nextjs-"))
const project = join(work, "app")
const nextBin = join(project, "node_modules/next/dist/bin/next")
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" }
let server: ChildProcess | undefined
let base = ""
let idp: TestSamlIdp

/** `next start`, resolved once it says it is ready. */
const nextStart = async (port: number) => {
  const child = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: project,
    env: {
      ...env,
      ROSTER_MASTER_KEY: masterKey,
      ROSTER_SECRETS_KEY: "nextjs-secrets-key-long-enough-0123456789",
      ROSTER_PUBLIC_URL: `http://127.0.0.1:${port}`
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  await new Promise<void>((resolve, reject) => {
    const watch = (chunk: Buffer) => {
      output += chunk
      if (/Ready in/u.test(output)) resolve()
    }
    child.stdout.on("data", watch)
    child.stderr.on("data", watch)
    child.once("exit", (code) => reject(new Error(`next start exited (${code}):\n${output}`)))
  })
  return child
}

beforeAll(async () => {
  idp = await samlIdp()
  // npm install's prepare built dist/ already: pack what it built.
  await run(`npm pack --ignore-scripts --silent --pack-destination ${work}`)
  const pkg = JSON.parse(readFileSync("package.json", "utf8"))
  mkdirSync(project)
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "next-host", private: true, type: "module" })
  )
  await run(
    `npm install --prefer-offline --no-audit --no-fund ${join(work, `${pkg.name}-${pkg.version}.tgz`)} ${effect} ${next} ${react.join(" ")}`,
    { cwd: project }
  )
  for (const [path, content] of pageFiles) {
    mkdirSync(dirname(join(project, path)), { recursive: true })
    writeFileSync(join(project, path), content)
  }
  await run(`"${process.execPath}" ${nextBin} build`, { cwd: project, env })
  const port = await freePort()
  server = await nextStart(port)
  base = `http://127.0.0.1:${port}`
}, 300_000)

afterAll(() => {
  server?.kill("SIGKILL")
  rmSync(work, { recursive: true, force: true })
})

describe("Roster in a Next.js app, a route handler under /roster", () => {
  it("takes the page's two files, no more", () => {
    expect(pageFiles.map(([path]) => path)).toEqual(["next.config.mjs", "app/roster/[[...path]]/route.js"])
  })

  it("serves the API, the console and their links under /roster, built by next build and run by next start", async () => {
    await expectServedUnder(base, { masterKey, idp })
  })
})
