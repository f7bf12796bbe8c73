import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { generateSync } from "otplib"
import { afterEach, describe, expect, it } from "vitest"
import { post, scriptCommand, startServer } from "../support/server-process.ts"

const run = promisify(execFile)
const masterKey = "totp-e2e-master-key-long-enough-0123456789"
const secretsKey = "totp-e2e-secrets-key-long-enough-0123456789"
const password = "a long enough passphrase"

const cleanup: Array<() => void> = []
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step()
})

describe("TOTP secrets at rest (npm start on SQLite with ROSTER_SECRETS_KEY)", () => {
  it("keeps the secret encrypted in the file, says so at start, and signs in with a code", async () => {
    const directory = mkdtempSync(join(tmpdir(), "roster-totp-e2e-"))
    cleanup.push(() => rmSync(directory, { recursive: true, force: true }))
    const server = await startServer(scriptCommand("start"), {
      ROSTER_DATA_DIR: directory,
      ROSTER_MASTER_KEY: masterKey,
      ROSTER_SECRETS_KEY: secretsKey
    })
    cleanup.push(server.kill)
    expect(server.output()).toMatch(
      /secrets: TOTP secrets are kept encrypted under ROSTER_SECRETS_KEY \(1 key/u
    )
    const call = async (method: string, path: string, body: unknown, token: string) =>
      (
        await fetch(`${server.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body)
        })
      ).json()
    const role = await call("POST", "/api/v1/team/role/add", { name: "Staff", roleKey: "staff" }, masterKey)
    await call(
      "POST",
      "/api/v1/team/add",
      { username: "ada", email: "ada@example.com", password, activestatus: true, roleId: role.id },
      masterKey
    )
    const { token } = await (await post(server, "/api/v1/auth/login", { username: "ada", password })).json()
    const { secret } = await call("POST", "/api/v1/auth/mfa/totp", { password }, token)
    await call("POST", "/api/v1/auth/mfa/totp/confirm", { code: generateSync({ secret }) }, token)
    const read = `const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(join(directory, "roster.db"))})
      console.log(JSON.stringify(db.query("SELECT document FROM mfa_factors").all())); db.close()`
    const [row] = JSON.parse((await run("node_modules/.bin/bun", ["-e", read])).stdout)
    const stored = JSON.parse(row.document)
    expect(stored.secret).toMatch(/^v1\.[0-9a-f]{8}\./u)
    expect(row.document).not.toContain(secret)
    expect(stored.recoveryCodes).toHaveLength(10)
    const challenged = await (await post(server, "/api/v1/auth/login", { username: "ada", password })).json()
    expect(challenged.mfaRequired).toBe(true)
    const next = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 })
    const signedIn = await post(server, "/api/v1/auth/mfa/verify", {
      challenge: challenged.challenge,
      code: next
    })
    expect(signedIn.status).toBe(200)
    expect(server.output()).not.toContain(secret)
  })
})
