// Per-request cost without a network: Roster's web handler and the bare HttpApi app's called in
// process, in alternating rounds, counting CPU time (the machine is shared), for comparing and
// profiling (`bun --cpu-prof bench/in-process.ts`; ONLY=roles, SUBJECT=roster,bare,router choose). Not a
// throughput figure: `npm run bench` is.
import { prepare } from "../app/start.ts"
import { bareWeb } from "./bare-httpapi.ts"
import { routerWeb } from "./bare-router.ts"

const { handler } = await prepare()
const base = "http://127.0.0.1:3000"
// With the headers wrk sends: a declared length (so the body is read whole, as from a socket) and a Host.
const post = (path: string, body: string) => () =>
  new Request(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "*/*", "content-length": String(body.length), host: "127.0.0.1:3000" },
    body
  })
const roleAdd = post("/api/v1/team/role/add", '{"name":"Bench","roleKey":"bench"}')
const grant = post("/api/v1/team/role-permission-detail", '{"roleId":1,"permissionId":1}')
// Renames role 1 back and forth: each request changes it, so each writes the change and its audit entry.
let renamed = 0
const rename = () => {
  const body = `{"name":"Bench ${renamed++ % 2 === 0 ? "A" : "B"}"}`
  return new Request(`${base}/api/v1/team/roles/1`, {
    method: "PATCH",
    headers: { "content-type": "*/*", "content-length": String(body.length), host: "127.0.0.1:3000" },
    body
  })
}
const requests: Record<string, () => Request> = {
  "GET /health/live": () => new Request(`${base}/health/live`, { headers: { host: "127.0.0.1:3000" } }),
  "GET /api/v1/team/roles": () =>
    new Request(`${base}/api/v1/team/roles`, { headers: { host: "127.0.0.1:3000" } }),
  "POST /api/v1/team/role/add (409)": roleAdd,
  "POST /api/v1/team/add (400)": post("/api/v1/team/add", '{"username":"x"}'),
  "POST /api/v1/team/role-permission-detail (200)": grant,
  "PATCH /api/v1/team/roles/1 (audited)": rename
}
// The bare apps have no such endpoint (`npm run bench` holds it against the grant's floor).
const rosterOnly = new Set(["PATCH /api/v1/team/roles/1 (audited)"])
const connection = { remoteAddress: "127.0.0.1" }
const subjects = {
  roster: (request: Request) => handler(request, connection),
  bare: (request: Request) => bareWeb.handler(request),
  // The same shapes on HttpRouter alone: measured only when asked (SUBJECT=router).
  router: (request: Request) => routerWeb.handler(request)
}
for (const make of [roleAdd, grant]) await (await handler(make(), connection)).arrayBuffer()

const only = process.env.ONLY
const subject = process.env.SUBJECT
const iterations = Number(process.env.ITERATIONS ?? 20000)
const rounds = Number(process.env.ROUNDS ?? 10)

/** Lets the event loop turn, as a server's does between requests. */
const turn = () => new Promise((resolve) => setImmediate(resolve))

/**
 * CPU time per request (user and system, µs): unlike wall time, it does not count time spent
 * descheduled. The event loop turns every hundred requests: what a server does there (writing the
 * gathered log lines, the work forked off the requests' path) would otherwise pile up for the
 * whole round and be paid in collections.
 */
const time = async (serve: (request: Request) => Promise<Response>, make: () => Request, count: number) => {
  const started = process.cpuUsage()
  for (let i = 0; i < count; i++) {
    await (await serve(make())).arrayBuffer()
    if (i % 100 === 99) await turn()
  }
  const used = process.cpuUsage(started)
  return (used.user + used.system) / count
}

const chosen = Object.entries(requests).filter(([name]) => only === undefined || name.includes(only))
const served = Object.entries(subjects).filter(([label]) =>
  subject === undefined ? label !== "router" : subject.split(",").includes(label)
)
const servedFor = (name: string) =>
  rosterOnly.has(name) ? served.filter(([label]) => label === "roster") : served
// Warm every path first (the JIT tiers up over thousands of calls), then take the best of several
// rounds: on a shared machine the least disturbed round is the cost.
for (const [name, make] of chosen) for (const [, serve] of servedFor(name)) await time(serve, make, 5000)
const best = new Map<string, number>()
for (let round = 0; round < rounds; round++)
  for (const [name, make] of chosen)
    for (const [label, serve] of servedFor(name)) {
      const cost = await time(serve, make, Math.ceil(iterations / rounds))
      best.set(`${name} ${label}`, Math.min(best.get(`${name} ${label}`) ?? Number.POSITIVE_INFINITY, cost))
    }
for (const [name] of chosen) {
  const [roster, bare] = [best.get(`${name} roster`), best.get(`${name} bare`)]
  const router = best.get(`${name} router`)
  console.log(
    `${name.padEnd(48)} roster ${roster?.toFixed(1) ?? "-"} µs, bare ${bare?.toFixed(1) ?? "-"} µs` +
      (roster !== undefined && bare !== undefined ? `, ×${(bare / roster).toFixed(2)}` : "") +
      (router === undefined ? "" : `, router ${router.toFixed(1)} µs`)
  )
}
process.exit(0)
