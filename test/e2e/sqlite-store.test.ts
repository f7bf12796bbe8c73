import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import { chmodSync, mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterEach, describe, expect, it } from "vitest"
import { latestSchemaVersion } from "../../adapters/sqlite/migrations.ts"
import { PermissionCatalog } from "../../core/index.ts"
import { post, type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"

const run = promisify(execFile)
const masterKey = "sqlite-e2e-master-key-long-enough-0123456"
const password = "a long enough passphrase"

const cleanup: Array<() => void> = []
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step()
})

const dataDirectory = () => {
  const directory = mkdtempSync(join(tmpdir(), "roster-sqlite-e2e-"))
  cleanup.push(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

/** `npm start` on the SQLite file in `directory`, as the operator (the master key), under `umask` when given. */
const serve = async (directory: string, umask?: string) => {
  const command = scriptCommand("start")
  const server = await startServer(
    umask === undefined ? command : ["sh", "-c", `umask ${umask} && exec ${command.join(" ")}`],
    {
      ROSTER_DATA_DIR: directory,
      ROSTER_MASTER_KEY: masterKey
    }
  )
  cleanup.push(server.kill)
  return server
}

const call = (server: RunningServer, method: string, path: string, body?: unknown, token = masterKey) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

const json = async (answer: Promise<Response>) => (await answer).json()

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8)

/** What Bun's driver reads from the file, for what no endpoint shows (the schema version). */
const sqlite = async (file: string, statement: string) => {
  const script = `const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(file)});
    console.log(JSON.stringify(db.query(${JSON.stringify(statement)}).all())); db.close()`
  const { stdout } = await run("node_modules/.bin/bun", ["-e", script])
  return JSON.parse(stdout)
}

describe("the SQLite store (npm start without a store configured)", () => {
  it("keeps the data across restarts in ROSTER_DATA_DIR, and says where at start", async () => {
    const directory = dataDirectory()
    const first = await serve(directory)
    expect(first.output()).toContain(`store: SQLite, ${join(directory, "roster.db")}`)
    const role = await json(call(first, "POST", "/api/v1/team/role/add", { name: "Staff", roleKey: "staff" }))
    first.kill()
    await first.exited
    const second = await serve(directory)
    expect(await json(call(second, "GET", "/api/v1/team/roles"))).toEqual([role])
    const [{ user_version }] = await sqlite(join(directory, "roster.db"), "PRAGMA user_version")
    expect(user_version).toBeGreaterThanOrEqual(1)
  })

  it("refuses to start on a file a newer Roster wrote, saying so", async () => {
    const directory = dataDirectory()
    await sqlite(join(directory, "roster.db"), "PRAGMA user_version = 99")
    await expect(serve(directory)).rejects.toThrow(/schema version 99, newer than/u)
  })

  it("two processes on one file behave as one: one e-mail taken once, a change on one seen at once on the other", async () => {
    const directory = dataDirectory()
    const [a, b] = [await serve(directory), await serve(directory)]
    const role = await json(call(a, "POST", "/api/v1/team/role/add", { name: "Staff", roleKey: "staff" }))
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 === 0 ? a : b, "POST", "/api/v1/team/add", {
          username: `member${i}`,
          email: "same@example.com",
          password,
          activestatus: true,
          roleId: role.id
        })
      )
    )
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 409)).toHaveLength(19)
    const [member] = await json(call(b, "GET", "/api/v1/team/members"))
    const session = await json(post(a, "/api/v1/auth/login", { username: member.username, password }))
    expect((await call(b, "GET", "/api/v1/auth/me", undefined, session.token)).status).toBe(200)
    await call(b, "POST", "/api/v1/admin/toggle-account-status", {
      user_id: member.id,
      accountActiveStatus: false
    })
    expect((await call(a, "GET", "/api/v1/auth/me", undefined, session.token)).status).toBe(401)
  })

  it("a process killed during concurrent writes loses no acknowledged change, nor its audit entry, and tears nothing", async () => {
    const directory = dataDirectory()
    const server = await serve(directory)
    // Twenty writers, each writing until the kill cuts its write off: some are under way when it lands.
    const acknowledged: Array<{ id: number }> = []
    const refused: Array<number> = []
    let writing = 20
    const writer = async (w: number) => {
      for (let i = 0; ; i++) {
        const body = { name: `Role ${w}-${i}`, roleKey: `role-${w}-${i}` }
        const answer = await call(server, "POST", "/api/v1/team/role/add", body).catch(() => undefined)
        if (answer?.status !== 200) {
          if (answer !== undefined) refused.push(answer.status)
          break
        }
        const role = await answer.json().catch(() => undefined)
        if (role === undefined) break
        acknowledged.push(role as { id: number })
      }
      writing--
    }
    const writers = Array.from({ length: writing }, (_, w) => writer(w))
    while (acknowledged.length < 30 && writing > 0) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(acknowledged.length, "writes were acknowledged before the kill").toBeGreaterThanOrEqual(30)
    server.kill()
    await Promise.all(writers)
    expect(refused, "no write was refused: each writer stopped when the process died").toEqual([])
    const again = await serve(directory)
    const roles = (await json(call(again, "GET", "/api/v1/team/roles?limit=200"))) as Array<{ id: number }>
    const stored = new Set(roles.map((role) => role.id))
    for (const role of acknowledged)
      expect(stored.has(role.id), `role ${role.id} was acknowledged`).toBe(true)
    const entries = (await json(
      call(again, "GET", "/api/v1/audit/events?action=role.added&limit=200")
    )) as Array<{
      target: { id: string }
    }>
    expect(entries.map((entry) => Number(entry.target.id)).sort()).toEqual([...stored].sort())
    const [{ integrity_check }] = await sqlite(join(directory, "roster.db"), "PRAGMA integrity_check")
    expect(integrity_check).toBe("ok")
  })

  it("npm run backup writes a consistent copy while serving; a server on the copy has the data", async () => {
    const directory = dataDirectory()
    const server = await serve(directory)
    for (let i = 0; i < 5; i++) {
      await call(server, "POST", "/api/v1/team/role/add", { name: `Role ${i}`, roleKey: `role-${i}` })
    }
    const restored = dataDirectory()
    const writing = Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(server, "POST", "/api/v1/team/role/add", { name: `Later ${i}`, roleKey: `later-${i}` })
      )
    )
    const { stdout } = await run(
      ...(["npm", ["run", "--silent", "backup", "--", join(restored, "roster.db")]] as const),
      {
        env: { ...process.env, ROSTER_DATA_DIR: directory }
      }
    )
    await writing
    expect(stdout).toContain("Backed up")
    const [{ integrity_check }] = await sqlite(join(restored, "roster.db"), "PRAGMA integrity_check")
    expect(integrity_check).toBe("ok")
    const copy = await serve(restored)
    const keys = (
      (await json(call(copy, "GET", "/api/v1/team/roles?limit=200"))) as Array<{ roleKey: string }>
    ).map((role) => role.roleKey)
    expect(keys.slice(0, 5)).toEqual(["role-0", "role-1", "role-2", "role-3", "role-4"])
    await expect(
      run("npm", ["run", "--silent", "backup", "--", join(restored, "roster.db")], {
        env: { ...process.env, ROSTER_DATA_DIR: directory }
      })
    ).rejects.toThrow(/exists already/u)
  })

  it("keeps its folder (0700), its files and its backups (0600) to their owner, whatever the umask", async () => {
    const directory = join(dataDirectory(), "data")
    const server = await serve(directory, "000")
    await call(server, "POST", "/api/v1/team/role/add", { name: "Staff", roleKey: "staff" })
    const file = join(directory, "roster.db")
    expect(modeOf(directory)).toBe("700")
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(path), path).toBe("600")
    const backup = join(dataDirectory(), "copy.db")
    await run("sh", ["-c", `umask 000 && exec npm run --silent backup -- '${backup}'`], {
      env: { ...process.env, ROSTER_DATA_DIR: directory }
    })
    expect(modeOf(backup)).toBe("600")
    server.kill()
    await server.exited
    // What an earlier version left readable by everyone is made private at the next start.
    for (const path of [file, `${file}-wal`, `${file}-shm`]) chmodSync(path, 0o644)
    await serve(directory, "022")
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(path), path).toBe("600")
  })

  it("a backup into a folder that does not exist is refused with a clear message", async () => {
    const directory = dataDirectory()
    await serve(directory)
    await expect(
      run("npm", ["run", "--silent", "backup", "--", join(directory, "missing", "copy.db")], {
        env: { ...process.env, ROSTER_DATA_DIR: directory }
      })
    ).rejects.toThrow(/does not exist/u)
  })

  it("after a restart, a role keyed owner that is not the organisation's Owner role holds nothing more", async () => {
    const directory = dataDirectory()
    const first = await serve(directory)
    const inAcme = (method: string, path: string, body?: unknown) =>
      fetch(`${first.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${masterKey}`,
          "content-type": "application/json",
          "roster-organization": "acme"
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    const acme = await json(call(first, "POST", "/api/v1/organizations", { name: "Acme", slug: "acme" }))
    await inAcme("PATCH", `/api/v1/team/roles/${acme.ownerRoleId}`, { roleKey: "founders" })
    const impostor = await json(inAcme("POST", "/api/v1/team/role/add", { name: "Owner", roleKey: "owner" }))
    await inAcme("POST", "/api/v1/team/role-permission-detail", { roleId: impostor.id, permissionId: 1 })
    const added = await inAcme("POST", "/api/v1/team/add", {
      username: "climber",
      email: "climber@example.com",
      password,
      activestatus: true,
      roleId: impostor.id
    })
    expect(added.status).toBe(200)
    first.kill()
    await first.exited
    const second = await serve(directory)
    const session = await json(post(second, "/api/v1/auth/login", { username: "climber", password }))
    const me = await json(call(second, "GET", "/api/v1/auth/me", undefined, session.token))
    expect(me.permissions).toEqual(["team.read"])
  })

  it("a role inactive when the file is brought to version 3 records that as its deactivation", async () => {
    const directory = dataDirectory()
    const file = join(directory, "roster.db")
    const script = `import { schemaV1 } from ${JSON.stringify(join(process.cwd(), "adapters/sqlite/schema-v1.ts"))}
      import { schemaV2 } from ${JSON.stringify(join(process.cwd(), "adapters/sqlite/schema-v2.ts"))}
      const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(file)})
      db.exec(schemaV1); db.exec(schemaV2); db.exec("PRAGMA user_version = 2")
      db.exec("INSERT INTO organizations (id, name, slug, created_at) VALUES ('default', 'Default', 'default', 0)")
      db.exec("INSERT INTO roles (organization_id, name, role_key, active, created_at) VALUES ('default', 'Off', 'off', 0, 0), ('default', 'On', 'on', 1, 0)")
      db.close()`
    await run("node_modules/.bin/bun", ["-e", script])
    const before = Date.now()
    await serve(directory)
    const roles = await sqlite(file, "SELECT role_key, deactivated_at FROM roles ORDER BY id")
    expect(roles[0].role_key).toBe("off")
    expect(roles[0].deactivated_at).toBeGreaterThanOrEqual(before - 1000)
    expect(roles[1]).toEqual({ role_key: "on", deactivated_at: null })
    const columns = await sqlite(file, "SELECT name FROM pragma_table_info('roles')")
    expect(columns.map((column: { name: string }) => column.name)).not.toContain("holders")
  })

  it("roles holding the whole catalog when the file is brought from version 4 hold the permissions appended since (API keys', webhooks')", async () => {
    const directory = dataDirectory()
    const file = join(directory, "roster.db")
    const steps = [1, 2, 3, 4].map((n) => `adapters/sqlite/schema-v${n}.ts`)
    const script = `${steps.map((step, i) => `import { schemaV${i + 1} } from ${JSON.stringify(join(process.cwd(), step))}`).join("\n")}
      const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(file)})
      db.exec(schemaV1); db.exec(schemaV2); db.exec(schemaV3); db.exec(schemaV4); db.exec("PRAGMA user_version = 4")
      db.exec("INSERT INTO organizations (id, name, slug, created_at) VALUES ('default', 'Default', 'default', 0)")
      db.exec("INSERT INTO roles (organization_id, name, role_key, active, created_at) VALUES ('default', 'Owners', 'owners', 1, 0), ('default', 'Staff', 'staff', 1, 0)")
      db.exec("INSERT INTO role_permissions (organization_id, role_id, permission_ids, updated_at) VALUES ('default', 1, '[1,2,3,4,5,6,7,8,9]', 0), ('default', 2, '[1,2,9]', 0)")
      db.close()`
    await run("node_modules/.bin/bun", ["-e", script])
    await serve(directory)
    const records = await sqlite(
      file,
      "SELECT role_id, permission_ids FROM role_permissions ORDER BY role_id"
    )
    expect(records).toEqual([
      { role_id: 1, permission_ids: JSON.stringify(PermissionCatalog.map((permission) => permission.id)) },
      { role_id: 2, permission_ids: "[1,2,9]" }
    ])
  })
  it("accounts in a file brought to version 6 show their address as not verified, and mailed tokens have a table", async () => {
    const directory = dataDirectory()
    const file = join(directory, "roster.db")
    const steps = [1, 2, 3, 4, 5].map((n) => `adapters/sqlite/schema-v${n}.ts`)
    const script = `${steps.map((step, i) => `import { schemaV${i + 1} } from ${JSON.stringify(join(process.cwd(), step))}`).join("\n")}
      const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(file)})
      for (const step of [schemaV1, schemaV2, schemaV3, schemaV4, schemaV5]) db.exec(step)
      db.exec("PRAGMA user_version = 5")
      db.exec("INSERT INTO organizations (id, name, slug, created_at) VALUES ('default', 'Default', 'default', 0)")
      db.exec("INSERT INTO roles (organization_id, name, role_key, active, created_at) VALUES ('default', 'Staff', 'staff', 1, 0)")
      db.exec("INSERT INTO accounts (id, username, username_key, email, password_hash, active, epoch, created_at) VALUES ('mem_old', 'old', 'old', 'old@example.com', '$scrypt$x', 1, 0, 0)")
      db.exec("INSERT INTO memberships (organization_id, account_id, role_id, active, epoch, created_at) VALUES ('default', 'mem_old', 1, 1, 0, 0)")
      db.close()`
    await run("node_modules/.bin/bun", ["-e", script])
    const server = await serve(directory)
    const member = await json(call(server, "GET", "/api/v1/team/members/mem_old"))
    expect(member).toMatchObject({ username: "old", emailVerified: false })
    const tables = await sqlite(file, "SELECT name FROM sqlite_master WHERE name = 'account_tokens'")
    expect(tables).toEqual([{ name: "account_tokens" }])
  })

  it("sessions in a file brought to version 7 take an id from their digest and stay listed and valid", async () => {
    const directory = dataDirectory()
    const file = join(directory, "roster.db")
    const token = "rss_a-session-opened-before-sessions-had-ids"
    const digest = createHash("sha256").update(token).digest("hex")
    const steps = [1, 2, 3, 4, 5, 6].map((n) => `adapters/sqlite/schema-v${n}.ts`)
    // Opened moments ago: its first request notes no new minute of use, which the listing would race.
    const opened = Date.now() - 5_000
    const later = Date.now() + 3_600_000
    const script = `${steps.map((step, i) => `import { schemaV${i + 1} } from ${JSON.stringify(join(process.cwd(), step))}`).join("\n")}
      const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(file)})
      for (const step of [schemaV1, schemaV2, schemaV3, schemaV4, schemaV5, schemaV6]) db.exec(step)
      db.exec("PRAGMA user_version = 6")
      db.exec("INSERT INTO organizations (id, name, slug, created_at) VALUES ('default', 'Default', 'default', 0)")
      db.exec("INSERT INTO roles (organization_id, name, role_key, active, created_at) VALUES ('default', 'Staff', 'staff', 1, 0)")
      db.exec("INSERT INTO accounts (id, username, username_key, email, password_hash, active, epoch, created_at) VALUES ('mem_old', 'old', 'old', 'old@example.com', '$scrypt$x', 1, 0, 0)")
      db.exec("INSERT INTO memberships (organization_id, account_id, role_id, active, epoch, created_at) VALUES ('default', 'mem_old', 1, 1, 0, 0)")
      db.exec("INSERT INTO sessions (token_hash, member_id, organization_id, member_epoch, created_at, expires_at) VALUES ('${digest}', 'mem_old', 'default', 0, ${opened}, ${later})")
      db.close()`
    await run("node_modules/.bin/bun", ["-e", script])
    const server = await serve(directory)
    const listed = await json(call(server, "GET", "/api/v1/auth/sessions", undefined, token))
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({
      id: `ses_${digest.slice(0, 32)}`,
      current: true,
      userAgent: null,
      address: null,
      createdAt: new Date(opened).toISOString()
    })
    expect(listed[0].lastSeenAt).toBe(listed[0].createdAt)
  })

  it("the records a file held at version 11 are read, used and changed through their declarations' tables", async () => {
    const directory = dataDirectory()
    const file = join(directory, "roster.db")
    const sha = (text: string) => createHash("sha256").update(text).digest("hex")
    const secret = "a".repeat(43)
    const scimToken = "rsc_a-scim-token-made-before-version-twelve"
    const resetToken = "rsr_a-reset-token-mailed-before-version-twelve"
    const now = Date.now()
    const later = now + 3_600_000
    const steps = Array.from({ length: 11 }, (_, i) => `adapters/sqlite/schema-v${i + 1}.ts`)
    const rows = [
      "INSERT INTO organizations (id, name, slug, created_at) VALUES ('default', 'Default', 'default', 0)",
      "INSERT INTO roles (organization_id, name, role_key, active, created_at) VALUES ('default', 'Staff', 'staff', 1, 0)",
      "INSERT INTO role_permissions (organization_id, role_id, permission_ids, updated_at) VALUES ('default', 1, '[1,2,11]', 0)",
      "INSERT INTO accounts (id, username, username_key, email, password_hash, active, epoch, created_at) VALUES ('mem_old', 'old', 'old', 'old@example.com', '$scrypt$x', 1, 0, 0)",
      "INSERT INTO memberships (organization_id, account_id, role_id, active, epoch, created_at) VALUES ('default', 'mem_old', 1, 1, 0, 0)",
      `INSERT INTO api_keys (id, organization_id, name, lookup, start, permission_ids, created_by, created_at, secret_hash)
         VALUES ('key_old', 'default', 'Sync', '0123456789abcdef', 'rk_0123456', '[1]', '{"kind":"master"}', ${now}, '${sha(secret)}')`,
      `INSERT INTO scim_tokens (id, organization_id, name, token_hash, created_at, permission_ids)
         VALUES ('scim_old', 'default', 'IdP', '${sha(scimToken)}', ${now}, '[1,2]')`,
      `INSERT INTO invitations (id, organization_id, email, role_id, status, token_hash, expires_at, created_at)
         VALUES ('inv_old', 'default', 'new@example.com', 1, 'pending', '${sha("rsi_x")}', ${later}, ${now})`,
      `INSERT INTO account_tokens (token_hash, purpose, account_id, organization_id, email, created_at, expires_at, tries_left, session_epoch)
         VALUES ('${sha(resetToken)}', 'password_reset', 'mem_old', 'default', 'old@example.com', ${now}, ${later}, 1, 0)`,
      `INSERT INTO account_mfa (account_id, secret, pending, last_step, recovery_codes) VALUES ('mem_old', 'plain.JBSWY3DPEHPK3PXP', NULL, 0, '[]')`,
      `INSERT INTO webhooks (id, organization_id, created_at, enabled, document) VALUES ('whk_old', 'default', ${now}, 1,
         '${JSON.stringify({ id: "whk_old", url: "https://hooks.example.com/old", events: ["*"], enabled: true, description: null, createdAt: new Date(now).toISOString(), organizationId: "default", secret: "plain.whsec_x", previous: null, failingSince: null })}')`
    ]
    const script = `${steps.map((step, i) => `import { schemaV${i + 1} } from ${JSON.stringify(join(process.cwd(), step))}`).join("\n")}
      const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(file)})
      for (const step of [${steps.map((_, i) => `schemaV${i + 1}`).join(", ")}]) db.exec(step)
      db.exec("PRAGMA user_version = 11")
      for (const row of ${JSON.stringify(rows)}) db.exec(row)
      db.close()`
    await run("node_modules/.bin/bun", ["-e", script])
    const server = await serve(directory)
    const me = await json(call(server, "GET", "/api/v1/auth/me", undefined, `rk_0123456789abcdef_${secret}`))
    expect(me.principal).toMatchObject({ kind: "api_key", id: "key_old", name: "Sync" })
    const users = await call(server, "GET", "/scim/v2/Users", undefined, scimToken)
    expect(users.status).toBe(200)
    const invited = await json(call(server, "GET", "/api/v1/team/invitations"))
    expect(invited).toMatchObject([{ id: "inv_old", email: "new@example.com", status: "pending" }])
    const endpoints = await json(call(server, "GET", "/api/v1/organization/webhooks"))
    expect(endpoints).toMatchObject([{ id: "whk_old", url: "https://hooks.example.com/old" }])
    const reset = await post(server, "/api/v1/auth/password/reset", {
      token: resetToken,
      newPassword: password
    })
    expect(reset.status).toBe(200)
    const login = await json(post(server, "/api/v1/auth/login", { username: "old", password }))
    expect(login.mfaRequired, "the second factor came along").toBe(true)
    const tables = await sqlite(
      file,
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%_v11'"
    )
    expect(tables).toEqual([])
    const [{ user_version }] = await sqlite(file, "PRAGMA user_version")
    expect(user_version).toBe(latestSchemaVersion)
  })
})
