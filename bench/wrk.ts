// Load from wrk, an external C generator, pinned to a core of its own: a JavaScript client on the
// server's cores would measure itself, not the server.

import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { spawnSync } from "bun"

export interface Request {
  readonly method: "GET" | "POST" | "PATCH" | "DELETE"
  readonly path: string
  readonly body?: string
  readonly headers?: Readonly<Record<string, string>>
}

export interface Measured {
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly non2xx: number
  readonly socketErrors: number
}

const has = (command: string) => spawnSync(["sh", "-c", `command -v ${command}`]).exitCode === 0

/** wrk from Debian's packages, installed here when missing and we may; otherwise the bench says how. */
export const ensureWrk = () => {
  if (has("wrk")) return
  if (process.getuid?.() === 0 && has("apt-get")) {
    console.log("wrk is missing: installing it with apt-get")
    spawnSync(["sh", "-c", "apt-get update -qq && apt-get install -y -qq wrk"], {
      stdout: "inherit",
      stderr: "inherit"
    })
  }
  if (!has("wrk")) {
    console.error("npm run bench needs wrk (Debian/Ubuntu: apt-get install wrk; macOS: brew install wrk)")
    process.exit(1)
  }
}

/** `taskset -c core` where taskset exists, so server and load never share a core. */
export const pinnedTo = (core: number): ReadonlyArray<string> =>
  has("taskset") ? ["taskset", "-c", String(core)] : []

const lua = (requests: ReadonlyArray<Request>) => {
  const quote = (text: string) => JSON.stringify(text)
  const formatted = requests.map((r) => {
    const headers = { "Content-Type": "*/*", ...r.headers }
    const table = Object.entries(headers)
      .map(([name, value]) => `[${quote(name)}] = ${quote(value)}`)
      .join(", ")
    return `wrk.format(${quote(r.method)}, ${quote(r.path)}, { ${table} }, ${r.body === undefined ? "nil" : quote(r.body)})`
  })
  return `
local requests = {}
init = function() ${formatted.map((f, i) => `requests[${i + 1}] = ${f}`).join("\n")} end
local i = 0
request = function() i = (i % #requests) + 1 return requests[i] end
done = function(summary, latency, _)
  local e = summary.errors
  io.write(string.format('\\nRESULT {"requests":%d,"durationUs":%d,"p50":%d,"p99":%d,"non2xx":%d,"socketErrors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status,
    e.connect + e.read + e.write + e.timeout))
end
`
}

const scripts = mkdtempSync(join(tmpdir(), "roster-bench-"))
let scriptCount = 0

/**
 * The bench's load, the same for every script that measures "after the bench's load": the server
 * on core 0, wrk on core 1.
 */
export const benchSettings = {
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  serverCore: 0,
  loadCore: 1
}

/** Runs wrk on `core` with `connections` connections for `seconds`, cycling through `requests`. */
export const wrk = async (
  base: string,
  requests: ReadonlyArray<Request>,
  options: { readonly connections: number; readonly seconds: number; readonly core: number }
): Promise<Measured> => {
  const script = join(scripts, `load-${scriptCount++}.lua`)
  writeFileSync(script, lua(requests))
  const child = Bun.spawn(
    [
      ...pinnedTo(options.core),
      "wrk",
      "-t1",
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      "-s",
      script,
      base
    ],
    { stdout: "pipe", stderr: "pipe" }
  )
  const output = await new Response(child.stdout).text()
  await child.exited
  const line = /RESULT (\{.*\})/.exec(output)?.[1]
  if (line === undefined)
    throw new Error(`wrk printed no result:\n${output}${await new Response(child.stderr).text()}`)
  const r = JSON.parse(line) as Record<string, number>
  return {
    requestsPerSecond: (r.requests as number) / ((r.durationUs as number) / 1e6),
    p50Ms: (r.p50 as number) / 1000,
    p99Ms: (r.p99 as number) / 1000,
    non2xx: r.non2xx as number,
    socketErrors: r.socketErrors as number
  }
}

/** `wrk`, after a second of the same load whose figures are dropped: the server warms up first. */
export const wrkWarmed = async (
  base: string,
  requests: ReadonlyArray<Request>,
  options: Parameters<typeof wrk>[2]
) => {
  await wrk(base, requests, { ...options, seconds: 1 })
  return wrk(base, requests, options)
}
