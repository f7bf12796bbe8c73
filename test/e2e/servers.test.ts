import { execFileSync, spawnSync } from "node:child_process"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { freePort, post, type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"

const runtimes = {
  bun: { npm: ["npm", "start", "--silent"], direct: scriptCommand("start") },
  "bun, built": { npm: ["npm", "run", "start:built", "--silent"], direct: scriptCommand("start:built") },
  deno: { npm: ["npm", "run", "start:deno", "--silent"], direct: scriptCommand("start:deno") }
} as const

// The bundle production runs (`npm run build:server`), built from this checkout's sources.
beforeAll(() => {
  execFileSync("npm", ["run", "build:server", "--silent"], { stdio: "ignore" })
})

const running: Array<RunningServer> = []
afterEach(() => {
  for (const server of running.splice(0)) server.kill()
})

const start = async (command: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const server = await startServer(command, env)
  running.push(server)
  return server
}

describe.each(Object.keys(runtimes) as Array<keyof typeof runtimes>)("the service on %s", (runtime) => {
  it("serves the contract over TCP, and 30 parallel adds of one e-mail give one 200 and 29 409s", async () => {
    const server = await start(runtimes[runtime].npm)
    const role = await post(server, "/api/v1/team/role/add", { name: "Staff", roleKey: "staff" })
    expect(role.status).toBe(200)
    const { id: roleId } = (await role.json()) as { id: number }
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post(server, "/api/v1/team/add", {
          username: `member${i}`,
          email: "same@example.com",
          password: "a long enough password",
          activestatus: true,
          roleId
        })
      )
    )
    const statuses = answers.map((answer) => answer.status).sort()
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 409)).toHaveLength(29)
    const codes = await Promise.all(
      answers.filter((a) => a.status === 409).map(async (a) => (await a.json()).code)
    )
    expect(new Set(codes)).toEqual(new Set(["duplicate_email"]))
    const members = await fetch(`${server.url}/api/v1/team/members`)
    expect(await members.json()).toHaveLength(1)
  })

  it("prints where the console is, at localhost (the host passkeys and the cookie are bound to), leads there from /, and serves it", async () => {
    const server = await start(runtimes[runtime].npm)
    const { port } = new URL(server.url)
    expect(server.output()).toContain(`Roster listening on http://localhost:${port}`)
    expect(server.output()).toContain(`console: open http://localhost:${port}/console/ in a browser`)
    const root = await fetch(`${server.url}/`, { redirect: "manual" })
    expect(root.headers.get("location")).toBe("/console/")
    const page = await fetch(`${server.url}/console/`)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-security-policy")).toMatch(/^default-src 'self'/)
  })

  it("starts where ROSTER_PUBLIC_URL is an IP address, with passkeys off, saying so and what to set", async () => {
    const port = await freePort()
    const server = await start(runtimes[runtime].npm, {
      PORT: String(port),
      ROSTER_MASTER_KEY: "servers-e2e-master-key-long-enough-0123456789",
      ROSTER_PUBLIC_URL: `http://127.0.0.1:${port}`
    })
    expect(server.output()).toMatch(
      /passkeys: off: ROSTER_PUBLIC_URL's host \(127\.0\.0\.1\) is an IP address/u
    )
    expect(server.output()).toMatch(/set ROSTER_WEBAUTHN_RP_ID/u)
    const asked = await post(server, "/api/v1/auth/passkeys/login/options", {})
    expect(asked.status).toBe(409)
    expect((await asked.json()).code).toBe("passkeys_unavailable")
    const methods = await (await fetch(`${server.url}/api/v1/auth/methods`)).json()
    expect(methods).toMatchObject({ passkeys: false, passkeyOrigins: [] })
  })

  it("on a port another process holds, exits 1 saying so in one line, with no stack trace", async () => {
    const first = await start(runtimes[runtime].npm)
    const port = new URL(first.url).port
    const [executable, ...args] = runtimes[runtime].direct as unknown as [string, ...Array<string>]
    const second = spawnSync(executable, args, {
      env: { ...process.env, PORT: port, HOST: "127.0.0.1", ROSTER_STORE: "memory" },
      encoding: "utf8",
      timeout: 30_000
    })
    expect(second.status).toBe(1)
    const output = `${second.stdout}${second.stderr}`
    expect(output).toContain(`Roster cannot start: 127.0.0.1:${port} is in use by another process`)
    expect(output).not.toMatch(/\n\s+at |EADDRINUSE|AddrInUse/)
    expect((await fetch(`${first.url}/health/live`)).status).toBe(200)
  })

  it("answers oversized headers with 431 and a problem body, not the server's bare refusal", async () => {
    const server = await start(runtimes[runtime].npm)
    const answer = await fetch(`${server.url}/api/v1/team/roles`, {
      headers: { "x-padding": "a".repeat(40 * 1024) }
    })
    expect(answer.status).toBe(431)
    expect(answer.headers.get("content-type")).toBe("application/problem+json")
    expect((await answer.json()).code).toBe("headers_too_large")
  })

  it("finishes the requests in flight on SIGTERM, then exits cleanly", async () => {
    const server = await start(runtimes[runtime].direct)
    // Logins spend a slow hash, so these are still being answered when the signal arrives.
    const inFlight = Array.from({ length: 4 }, () =>
      post(server, "/api/v1/auth/login", { username: "nobody", password: "wrong password" })
    )
    await new Promise((resolve) => setTimeout(resolve, 100))
    server.process.kill("SIGTERM")
    const answers = await Promise.all(inFlight)
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401])
    expect(await server.exited).toBe(0)
    await expect(fetch(`${server.url}/health/live`)).rejects.toThrow()
    const output = server.output()
    // They really were in flight: answered (and logged) after the signal was taken.
    expect(output.indexOf("SIGTERM")).toBeGreaterThan(-1)
    expect(output.lastIndexOf('"path":"/api/v1/auth/login"')).toBeGreaterThan(output.indexOf("SIGTERM"))
    expect(output).toContain("Roster stopped")
  })
})
