import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { PermissionCatalog } from "../../core/index.ts"
import { type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"

const directory = mkdtempSync(join(tmpdir(), "roster-owner-"))
const running: Array<RunningServer> = []
afterAll(() => {
  for (const server of running.splice(0)) server.kill()
  rmSync(directory, { recursive: true, force: true })
})

const password = "a long passphrase"

/** `npm run roster -- …` as an operator runs it, on the throwaway store. */
const roster = (
  args: ReadonlyArray<string>,
  env: Record<string, string> = { ROSTER_OWNER_PASSWORD: password }
) => {
  const [executable, ...script] = scriptCommand("roster") as [string, ...Array<string>]
  const run = spawnSync(executable, [...script, ...args], {
    env: { ...process.env, ROSTER_DATA_DIR: directory, ...env },
    encoding: "utf8",
    timeout: 60_000
  })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

describe("npm run roster -- owner", () => {
  it("makes the Owner role and its member once; a second run changes nothing; the owner can do everything", async () => {
    const first = roster(["owner", "--username", "ada", "--email", "Ada@Example.com"])
    expect(first.output).toMatch(
      /^default: Owner role \d+ holds every permission; ada \(.+\) is made a member in it/
    )
    expect(first.status).toBe(0)
    const again = roster(["owner", "--username", "ada", "--email", "ada@example.com"])
    expect(again.status).toBe(0)
    expect(again.output).toContain("already a member in it: nothing changed")
    expect(again.output.split(";")[0]).toBe(first.output.split(";")[0])

    const server = await startServer(scriptCommand("start"), {
      ROSTER_DATA_DIR: directory,
      ROSTER_STORE: "sqlite"
    })
    running.push(server)
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "ada", password })
    })
    const { token } = (await login.json()) as { token: string }
    const me = (await (
      await fetch(`${server.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as {
      permissions: ReadonlyArray<string>
    }
    expect(me.permissions).toHaveLength(PermissionCatalog.length)
    const members = (await (
      await fetch(`${server.url}/api/v1/team/members`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as ReadonlyArray<unknown>
    expect(members).toHaveLength(1)
    server.kill()
  })

  it("refuses a username and an e-mail of two accounts, a password argument, and no password at all", () => {
    const taken = roster(["owner", "--username", "bob", "--email", "ada@example.com"])
    expect(taken.status).toBe(1)
    expect(taken.output).toContain("two different accounts")
    const argument = roster([
      "owner",
      "--username",
      "bob",
      "--email",
      "bob@example.com",
      "--password",
      password
    ])
    expect(argument.status).toBe(2)
    expect(argument.output).toContain("never an argument")
    const none = roster(["owner", "--username", "bob", "--email", "bob@example.com"], {})
    expect(none.status).toBe(2)
    expect(none.output).toContain("ROSTER_OWNER_PASSWORD")
    expect(roster(["owner", "--username", "bob"]).status).toBe(2)
  })
})
