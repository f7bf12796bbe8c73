// `npm run bench`: each endpoint's throughput and p99 as a ratio to a raw Bun.serve measured in the same run.
import { type Subprocess, spawn } from "bun"
import { type Load, type Measured, measure } from "./load.ts"

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)

const loads: Record<string, Load> = {
  "GET /health/live": { method: "GET", path: "/health/live" },
  "GET /api/v1/team/permissions": { method: "GET", path: "/api/v1/team/permissions" },
  "GET /api/v1/team/roles": { method: "GET", path: "/api/v1/team/roles" },
  "POST /api/v1/team/role/add (409)": {
    method: "POST",
    path: "/api/v1/team/role/add",
    body: JSON.stringify({ name: "Bench", roleKey: "bench" })
  },
  "POST /api/v1/team/add (400)": { method: "POST", path: "/api/v1/team/add", body: '{"username":"x"}' }
}

let nextPort = 4700
const start = async (entry: string, env: Record<string, string> = {}) => {
  const port = nextPort++
  const child = spawn(["bun", entry], { env: { ...process.env, PORT: String(port), ...env }, stdout: "pipe" })
  const reader = child.stdout.getReader()
  let seen = ""
  while (!seen.includes("listening on")) seen += new TextDecoder().decode((await reader.read()).value)
  // Keep draining: a full pipe would stall the server's log writes and skew the numbers.
  void (async () => {
    while (!(await reader.read()).done) {}
  })()
  return { base: `http://127.0.0.1:${port}`, child }
}

const rssMb = async (child: Subprocess) => {
  const status = await Bun.file(`/proc/${child.pid}/status`).text()
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024
}

const run = async (label: string, entry: string, env: Record<string, string> = {}) => {
  const server = await start(entry, env)
  await fetch(server.base + "/api/v1/team/role/add", {
    method: "POST",
    body: loads["POST /api/v1/team/role/add (409)"]?.body ?? ""
  })
  const results: Record<string, Measured> = {}
  for (const [name, load] of Object.entries(loads)) {
    await measure(server.base, load, connections, 1)
    results[name] = await measure(server.base, load, connections, seconds)
  }
  const rss = await rssMb(server.child)
  server.child.kill()
  return { label, results, rss }
}

const baseline = await run("baseline", "bench/baseline.ts")
const roster = await run("roster", "app/main.ts")
const quiet = await run("roster, request log off", "app/main.ts", { ROSTER_LOG_REQUESTS: "false" })

const ratio = (value: number, reference: number) => (value / reference).toFixed(2)
console.log(`${connections} connections, ${seconds} s per endpoint; ratios are to a raw Bun.serve`)
for (const subject of [roster, quiet]) {
  console.log(`\n${subject.label} (RSS ${subject.rss.toFixed(0)} MB, baseline ${baseline.rss.toFixed(0)} MB)`)
  for (const [name, measured] of Object.entries(subject.results)) {
    const reference = baseline.results[name] as Measured
    console.log(
      `  ${name.padEnd(36)} ${measured.requestsPerSecond.toFixed(0).padStart(7)} req/s  ×${ratio(measured.requestsPerSecond, reference.requestsPerSecond)}` +
        `   p99 ${measured.p99Ms.toFixed(1).padStart(6)} ms  ×${ratio(measured.p99Ms, reference.p99Ms)}   status ${measured.statuses.join(",")}`
    )
  }
}
