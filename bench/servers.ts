import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Subprocess, spawn } from "bun"
import { pinnedTo } from "./wrk.ts"

export interface Server {
  readonly base: string
  readonly pid: number
  readonly rssMb: () => Promise<number>
  readonly stop: () => Promise<void>
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const waitFor = async (child: Subprocess<"ignore", "pipe", "inherit">, pattern: RegExp) => {
  const reader = child.stdout.getReader()
  let seen = ""
  let match: RegExpExecArray | null = null
  while (match === null) {
    const chunk = await reader.read()
    if (chunk.done) throw new Error(`exited before it was ready:\n${seen}`)
    seen += new TextDecoder().decode(chunk.value)
    match = pattern.exec(seen)
  }
  // Keep draining: a full pipe would stall the server's log writes and skew the numbers.
  void (async () => {
    while (!(await reader.read()).done) {}
  })()
  return match
}

/**
 * A Bun server pinned to `core`, started from `entry` with `env`; ready once it prints `ready`
 * (by default, that it listens), whose match it hands back.
 */
export const startBun = async (
  entry: string,
  env: Record<string, string>,
  core: number,
  ready = /listening on/
): Promise<Server & { readonly ready: RegExpExecArray }> => {
  const port = await freePort()
  const child = spawn([...pinnedTo(core), "bun", entry], {
    env: { ...process.env, PORT: String(port), ...env },
    stdout: "pipe",
    stderr: "inherit"
  })
  const said = await waitFor(child, ready)
  return {
    ready: said,
    base: `http://127.0.0.1:${port}`,
    pid: child.pid,
    rssMb: async () => {
      const status = await Bun.file(`/proc/${child.pid}/status`).text()
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024
    },
    stop: async () => {
      child.kill()
      await child.exited
    }
  }
}

/** The tests' MongoDB-compatible server (tools/ferretdb), built if needed, on a fresh data directory. */
export const startFerretDb = async () => {
  await Bun.spawn(["bash", "tools/ferretdb/build.sh"], { stdout: "ignore", stderr: "inherit" }).exited
  const data = mkdtempSync(join(tmpdir(), "roster-bench-ferretdb-"))
  const child = spawn(["tools/ferretdb/bin/ferretdb", "-listen", "127.0.0.1:0", "-data", data, "-lifeline"], {
    stdin: "pipe",
    stdout: "pipe",
    // Its log repeats every command it does not implement (TTL indexes): noise here.
    stderr: "ignore"
  })
  const ready = await waitFor(
    child as unknown as Subprocess<"ignore", "pipe", "inherit">,
    /ready (mongodb:\/\/\S+)/
  )
  return {
    uri: ready[1] as string,
    stop: async () => {
      child.kill()
      await child.exited
      rmSync(data, { recursive: true, force: true })
    }
  }
}

/** The tests' OTLP receiver, its output discarded: where a traced Roster exports its spans. */
export const startOtlpReceiver = async () => {
  await Bun.spawn(["bash", "tools/otlp-receiver/build.sh"], { stdout: "ignore", stderr: "inherit" }).exited
  const port = await freePort()
  const child = spawn(["tools/otlp-receiver/bin/otlp-receiver", `127.0.0.1:${port}`], {
    stdout: "ignore",
    stderr: "ignore"
  })
  const url = `http://127.0.0.1:${port}`
  while ((await fetch(`${url}/v1/traces`, { method: "POST" }).catch(() => undefined)) === undefined) {
    await Bun.sleep(50)
  }
  return {
    url,
    stop: async () => {
      child.kill()
      await child.exited
    }
  }
}
