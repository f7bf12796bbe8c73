import { execFile } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseEnv, promisify } from "node:util"
import { afterEach, describe, expect, it } from "vitest"
import { type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"

const run = promisify(execFile)

/** The shell block the page marks with `<!-- README test: name -->`, as written. */
const block = (name: string, page = "README.md") => {
  const readme = readFileSync(page, "utf8")
  const marker = readme.indexOf(`<!-- README test: ${name} -->`)
  if (marker < 0) throw new Error(`The README has no block marked ${name}`)
  const start = readme.indexOf("```sh\n", marker) + "```sh\n".length
  return readme.slice(start, readme.indexOf("```", start))
}

const running: Array<RunningServer> = []
afterEach(() => {
  for (const server of running.splice(0)) server.kill()
})

/** Runs the block with bash, stopping at the first command that fails (`jq -e` fails on a missing field). */
const runBlock = async (
  name: string,
  server: RunningServer,
  env: Record<string, string> = {},
  page = "README.md"
) => {
  const { stdout } = await run("bash", ["-euo", "pipefail", "-c", block(name, page)], {
    env: { ...process.env, ...env, ROSTER_URL: server.url },
    timeout: 60_000
  })
  return stdout
}

describe("the README's examples and the tour, run as written against npm start on a throwaway store", () => {
  it("the front page: the start step's keys in .env, the first owner made by the command, signed in", async () => {
    const data = mkdtempSync(join(tmpdir(), "roster-readme-"))
    try {
      // The start step, where the page runs it: its .env written in a folder of the test's own.
      // A front page: what the README says fits in it.
      expect(readFileSync("README.md", "utf8").trimEnd().split("\n").length).toBeLessThanOrEqual(150)
      const [makeKeys, start] = block("start").trim().split("\n")
      expect(start).toBe("npm start")
      await run("bash", ["-euo", "pipefail", "-c", makeKeys ?? ""], { cwd: data })
      const written = readFileSync(join(data, ".env"), "utf8")
      const keys = parseEnv(written)
      expect(keys.ROSTER_MASTER_KEY).toMatch(/^[0-9a-f]{64}$/u)
      expect(keys.ROSTER_SECRETS_KEY).toMatch(/^[0-9a-f]{64}$/u)
      expect(keys.ROSTER_SECRETS_KEY).not.toBe(keys.ROSTER_MASTER_KEY)
      // Run again (a restart), it keeps the keys: what the secrets key sealed stays readable.
      await run("bash", ["-euo", "pipefail", "-c", makeKeys ?? ""], { cwd: data })
      expect(readFileSync(join(data, ".env"), "utf8")).toBe(written)
      const env = { ...(keys as Record<string, string>), ROSTER_DATA_DIR: data }
      const server = await startServer(scriptCommand("start"), env)
      running.push(server)
      expect(server.output()).toMatch(/secrets: TOTP secrets are kept encrypted under ROSTER_SECRETS_KEY/u)
      expect(server.output()).toMatch(/Roster listening on http:\/\/localhost:\d+/u)
      const output = await runBlock("front page", server, env)
      expect(output).toMatch(/Owner role \d+ holds every permission; ada/u)
      expect(output.trim().split("\n").at(-1)).toBe("true")
    } finally {
      rmSync(data, { recursive: true, force: true })
    }
  })

  it("open local mode: the six endpoints of the fixed interface", async () => {
    const server = await startServer(scriptCommand("start"))
    running.push(server)
    const output = await runBlock("open local mode", server, {}, "docs/getting-started.md")
    expect(output).toContain('"pending"')
    expect(output.trim().split("\n").at(-1)).toBe("true")
  })

  it("secure mode: a role, its grants, a member who signs in and out", async () => {
    const key = randomBytes(32).toString("hex")
    const server = await startServer(scriptCommand("start"), { ROSTER_MASTER_KEY: key })
    running.push(server)
    const output = await runBlock(
      "secure mode",
      server,
      { ROSTER_MASTER_KEY: key },
      "docs/getting-started.md"
    )
    expect(output).toContain('"team.members.write"')
    expect(output.trim().split("\n").at(-1)).toBe("true")
  })

  it("the tour: an organisation, an invitation accepted, an API key, a SCIM user, a subscription activated by a signed event", async () => {
    const secrets = {
      ROSTER_MASTER_KEY: randomBytes(32).toString("hex"),
      ROSTER_WEBHOOK_SECRET: "whsec_readme_tour"
    }
    const server = await startServer(scriptCommand("start"), secrets)
    running.push(server)
    const output = await runBlock("tour", server, secrets, "docs/tour.md")
    // The invitee's session, the API key as itself and reading the team, the event applied, the subscription active.
    const lines = output.trim().split("\n")
    expect(lines.filter((line) => line === "true")).toHaveLength(5)
    expect(lines.at(-1)).toBe("true")
  })
})
