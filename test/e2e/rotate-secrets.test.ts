import { execFile, spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { generateSync } from "otplib"
import { afterAll, describe, expect, it } from "vitest"
import { post, type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"

const run = promisify(execFile)
const directory = mkdtempSync(join(tmpdir(), "roster-rotate-"))
const running: Array<RunningServer> = []
afterAll(() => {
  for (const server of running.splice(0)) server.kill()
  rmSync(directory, { recursive: true, force: true })
})

const masterKey = "rotate-secrets-master-key-long-enough-01"
const oldKey = "the old secrets key long enough to be one"
const newKey = "the new secrets key long enough to be one"
const password = "a long enough passphrase"
const organizations = 15

const serve = async (secretsKey: string) => {
  const server = await startServer(scriptCommand("start"), {
    ROSTER_DATA_DIR: directory,
    ROSTER_MASTER_KEY: masterKey,
    ROSTER_SECRETS_KEY: secretsKey,
    ROSTER_WEBHOOK_ALLOW_PRIVATE: "on"
  })
  running.push(server)
  return server
}
const stop = async (server: RunningServer) => {
  server.process.kill("SIGTERM")
  await server.exited
}
const call = (
  server: RunningServer,
  method: string,
  path: string,
  body?: unknown,
  token = masterKey,
  slug?: string
) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      ...(slug === undefined ? {} : { "roster-organization": slug })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

/** The key id each sealed secret in the file names (`v1.<id>.…`), by table. */
const sealedKeys = async () => {
  const script = `const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(join(directory, "roster.db"))})
    const docs = [...db.query("SELECT document FROM webhooks").all(), ...db.query("SELECT document FROM mfa_factors").all()]
    console.log(JSON.stringify(docs.map((row) => JSON.parse(row.document)).flatMap((doc) => [doc.secret, doc.pending].filter((s) => typeof s === "string").map((s) => s.split(".")[1])))); db.close()`
  return JSON.parse((await run("node_modules/.bin/bun", ["-e", script])).stdout) as Array<string>
}

const rotate = (secretsKey: string) => {
  const [executable, ...script] = scriptCommand("roster") as [string, ...Array<string>]
  return {
    executable,
    args: [...script, "rotate-secrets", "--batch", "1"],
    env: { ...process.env, ROSTER_DATA_DIR: directory, ROSTER_SECRETS_KEY: secretsKey }
  }
}

describe("npm run roster -- rotate-secrets", () => {
  it("seals every secret again under the first key, resumably after a kill, idempotently, so the old key can go", async () => {
    const first = await serve(oldKey)
    for (let n = 0; n < organizations; n++) {
      const slug = `org-${n}`
      expect((await call(first, "POST", "/api/v1/organizations", { name: slug, slug })).status).toBe(200)
      for (let hook = 0; hook < 20; hook++) {
        const made = await call(
          first,
          "POST",
          "/api/v1/organization/webhooks",
          { url: `http://127.0.0.1:9/${hook}`, events: ["*"] },
          masterKey,
          slug
        )
        expect(made.status).toBe(200)
      }
    }
    const role = await (
      await call(first, "POST", "/api/v1/team/role/add", { name: "Staff", roleKey: "staff" })
    ).json()
    await call(first, "POST", "/api/v1/team/role-permission-detail", { roleId: role.id, permissionId: 1 })
    const added = await call(first, "POST", "/api/v1/team/add", {
      username: "ada",
      email: "ada@example.com",
      password,
      activestatus: true,
      roleId: role.id
    })
    expect(added.status).toBe(200)
    const { token } = await (await post(first, "/api/v1/auth/login", { username: "ada", password })).json()
    const { secret } = await (await call(first, "POST", "/api/v1/auth/mfa/totp", { password }, token)).json()
    const confirmed = await call(
      first,
      "POST",
      "/api/v1/auth/mfa/totp/confirm",
      { code: generateSync({ secret }) },
      token
    )
    expect(confirmed.status).toBe(200)
    await stop(first)
    const [oldId] = await sealedKeys()
    expect(new Set(await sealedKeys())).toEqual(new Set([oldId]))

    // Killed once it has sealed something again: what it did stays, what it did not is still readable.
    const killed = rotate(`${newKey},${oldKey}`)
    const child = spawn(killed.executable, killed.args, {
      env: killed.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true
    })
    await new Promise<void>((resolve) => {
      child.stdout?.on("data", (chunk: Buffer) => {
        if (/[1-9]\d* sealed again/u.test(String(chunk))) {
          process.kill(-(child.pid ?? 0), "SIGKILL")
          resolve()
        }
      })
    })
    await new Promise((resolve) => child.once("exit", resolve))
    const halfway = await sealedKeys()
    const newId = halfway.find((id) => id !== oldId)
    expect(newId, "some sealed again before the kill").toBeDefined()
    expect(halfway.filter((id) => id === oldId).length, "some left for the next run").toBeGreaterThan(0)
    expect(new Set(halfway)).toEqual(new Set([oldId, newId]))

    const resumed = spawnSync(killed.executable, killed.args, {
      env: killed.env,
      encoding: "utf8",
      timeout: 120_000
    })
    expect(resumed.status, resumed.stderr).toBe(0)
    expect(resumed.stdout).toContain("done; keys after the first may be removed")
    expect(new Set(await sealedKeys())).toEqual(new Set([newId]))
    const again = spawnSync(killed.executable, killed.args, {
      env: killed.env,
      encoding: "utf8",
      timeout: 120_000
    })
    expect(again.stdout).toMatch(/0 sealed again, \d+ under the first key already\n/u)

    // The old key gone: the second factor still opens, under the new one alone.
    const second = await serve(newKey)
    const challenged = await (await post(second, "/api/v1/auth/login", { username: "ada", password })).json()
    const next = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 })
    const verified = await post(second, "/api/v1/auth/mfa/verify", {
      challenge: challenged.challenge,
      code: next
    })
    expect(verified.status).toBe(200)
    await stop(second)

    // A key that never sealed them: a 503 that names the fix, never a 500.
    const third = await serve("a key that sealed nothing here and long enough")
    const retried = await (await post(third, "/api/v1/auth/login", { username: "ada", password })).json()
    const refused = await post(third, "/api/v1/auth/mfa/verify", {
      challenge: retried.challenge,
      code: "123456"
    })
    expect(refused.status).toBe(503)
    expect((await refused.json()).code).toBe("secrets_key_required")
    for (let wait = 0; wait < 40 && !third.output().includes("cannot be opened"); wait++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(third.output(), "a log line says what to do").toContain("cannot be opened")
  })
})
