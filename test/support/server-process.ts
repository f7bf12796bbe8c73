import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

const scripts: Record<string, string> = JSON.parse(readFileSync("package.json", "utf8")).scripts

/** The command an npm script runs, for signalling the runtime itself rather than npm in front of it. */
export const scriptCommand = (name: string) => {
  const [runtime, ...args] = (scripts[name] ?? "").split(" ")
  return [`node_modules/.bin/${runtime}`, ...args]
}

export interface RunningServer {
  readonly url: string
  readonly process: ChildProcess
  readonly output: () => string
  /** Resolves with the exit code once the process has ended. */
  readonly exited: Promise<number | null>
  /** Kills the whole process group: npm and the runtime it started, nothing left listening. */
  readonly kill: () => void
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()))
    })
  })

/** Starts the service as a user would (`npm start`, `npm run start:deno`) and waits until it listens. */
export const startServer = async (
  command: ReadonlyArray<string>,
  env: Record<string, string> = {}
): Promise<RunningServer> => {
  // A test that must know the address before the start (a link in the configuration) chooses the port.
  const port = env.PORT === undefined ? await freePort() : Number(env.PORT)
  const [executable, ...args] = command as [string, ...Array<string>]
  // Each server keeps its SQLite file (the default store) in a directory of its own.
  const dataDir = mkdtempSync(join(tmpdir(), "roster-data-"))
  const child = spawn(executable, args, {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", ROSTER_DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true
  })
  const kill = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
    } catch {
      // Already gone.
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
  let output = ""
  child.stdout?.on("data", (chunk) => (output += chunk))
  child.stderr?.on("data", (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const deadline = Date.now() + 30_000
  while (!output.includes("Roster listening on")) {
    if (child.exitCode !== null || Date.now() > deadline) {
      kill()
      throw new Error(`The server did not start:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { url: `http://127.0.0.1:${port}`, process: child, output: () => output, exited, kill }
}

/** Sends JSON the way the fixed interface's clients do: `Content-Type: *\/*`. */
export const post = (server: RunningServer, path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "*/*" },
    body: JSON.stringify(body)
  })
