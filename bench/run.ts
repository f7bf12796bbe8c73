// `npm run bench`: in one run a raw Bun.serve, a bare Effect HttpApi app (the framework's floor) and
// Roster (open; with metrics; traced; secure with a session or the master key; on SQLite and MongoDB), each
// loaded by wrk on a core of its own. Prints a table and writes bench/results/latest.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { accessTokenCost, printAccessTokenCost } from "./access-tokens.ts"
import { againstBaseline, floorRatiosOf } from "./against-baseline.ts"
import { authorizeCost, printAuthorizeCost } from "./authorize-cost.ts"
import { measureBetterAuth, printAgainstBetterAuth } from "./better-auth.ts"
import { countingCostUs } from "./counting-cost.ts"
import { eventDelivery, printEventDelivery } from "./event-delivery.ts"
import { forgotTiming, printForgotTiming } from "./forgot-timing.ts"
import { floorGet, type Load, loads } from "./loads.ts"
import { type Flood, loginFlood } from "./login-flood.ts"
import { type MetricsCost, pairedMetricsCost } from "./metrics-cost.ts"
import { mfaLoginTiming, printMfaLoginTiming } from "./mfa-login.ts"
import { keyCompared, printRatios, printTargets, ratiosOf, storeCompared } from "./ratios.ts"
import { type Measured as Counted, measured } from "./round-trips.ts"
import { benchMasterKey as masterKey, seedOpen, seedSecure, seedSecureKey } from "./seed.ts"
import { type Server, startBun, startFerretDb, startOtlpReceiver } from "./servers.ts"
import { printSsoLoginTiming, ssoLoginTiming } from "./sso-login.ts"
import { mongoRoundTrips, sqliteRoundTrips } from "./store-round-trips.ts"
import { benchSettings, ensureWrk, type Measured, wrkWarmed } from "./wrk.ts"

const { seconds, connections, serverCore, loadCore } = benchSettings

interface Subject {
  readonly label: string
  readonly rssMb: number
  /** A second later, idle: what the process holds once the load's garbage is collected. */
  readonly rssSettledMb: number
  readonly results: Record<string, Measured & { readonly status: number }>
  readonly flood?: Flood
}

const measureAll = async (
  label: string,
  server: Server,
  list: ReadonlyArray<Load>,
  flood?: () => Promise<Flood>
) => {
  const results: Subject["results"] = {}
  for (const load of list) {
    const [first] = load.requests
    if (first === undefined) throw new Error(`The load ${load.name} has no requests`)
    const probe = await fetch(server.base + first.path, {
      method: first.method,
      headers: { "content-type": "*/*", ...first.headers },
      ...(first.body === undefined ? {} : { body: first.body })
    })
    await probe.arrayBuffer()
    const measured = await wrkWarmed(server.base, load.requests, { connections, seconds, core: loadCore })
    results[load.name] = { ...measured, status: load.name === "mixed" ? 0 : probe.status }
  }
  const rssMb = await server.rssMb()
  await Bun.sleep(1000)
  const rssSettledMb = await server.rssMb()
  const subject: Subject = {
    label,
    rssMb,
    rssSettledMb,
    results,
    ...(flood === undefined ? {} : { flood: await flood() })
  }
  await server.stop()
  console.log(`measured: ${label}`)
  return subject
}

const run = async (
  label: string,
  entry: string,
  env: Record<string, string>,
  list: (s: Server) => Promise<ReadonlyArray<Load>>,
  flood?: (s: Server) => () => Promise<Flood>
) => {
  // In process memory unless the subject names its store: what is measured is the service's own work.
  const server = await startBun(
    entry,
    { ROSTER_PLANS_FILE: "config/plans.json", ROSTER_STORE: "memory", ...env },
    serverCore
  )
  return measureAll(label, server, await list(server), flood?.(server))
}

ensureWrk()
const open = async (s: Server) => loads(await seedOpen(s.base))
const raw = await run("raw Bun.serve", "bench/baseline.ts", {}, open)
const bare = await run("bare Effect HttpApi", "bench/bare-server.ts", {}, open)
/**
 * `BENCH_ONLY` (a regular expression, e.g. `open mode($|, traced)`) measures only the Roster subjects
 * whose label matches; the references always run.
 */
const only = process.env.BENCH_ONLY === undefined ? undefined : new RegExp(process.env.BENCH_ONLY)
const wanted = (label: string) => only === undefined || only.test(label)
const subjects: Array<Subject> = []
const measure = async (
  label: string,
  ...rest: Parameters<typeof run> extends [string, ...infer R] ? R : never
) => {
  if (wanted(label)) subjects.push(await run(label, ...rest))
}
await measure("Roster, open mode", "app/main.ts", {}, open)
// The bundle production runs (`npm run build:server`): only the code used, in a few modules.
if (wanted("Roster, open mode, built")) {
  await Bun.spawn(["npm", "run", "build:server", "--silent"], { stdout: "ignore", stderr: "inherit" }).exited
  await measure("Roster, open mode, built", "build/main.js", {}, open)
}
// What metrics cost (ROSTER_METRICS=on): the same load, counted; then off and on measured in pairs.
await measure("Roster, open mode, metrics on", "app/main.ts", { ROSTER_METRICS: "on" }, open)
const metricsCost: MetricsCost | undefined = wanted("Roster, open mode, metrics on")
  ? await pairedMetricsCost({ seconds: 2, rounds: 5, connections, serverCore, loadCore })
  : undefined
await measure(
  "Roster, secure, session token",
  "app/main.ts",
  { ROSTER_MASTER_KEY: masterKey },
  async (s) => loads(await seedSecure(s.base, masterKey)),
  (s) => () => loginFlood(s, masterKey, { seconds, core: loadCore })
)
await measure("Roster, secure, API key", "app/main.ts", { ROSTER_MASTER_KEY: masterKey }, async (s) =>
  loads(await seedSecureKey(s.base, masterKey))
)
await measure("Roster, secure, master key", "app/main.ts", { ROSTER_MASTER_KEY: masterKey }, async (s) => {
  await seedSecure(s.base, masterKey)
  return loads(masterKey)
})
// What tracing costs: every request's spans exported (OTLP to a receiver on the same machine), or one in a hundred.
const receiver = await startOtlpReceiver()
for (const [share, ratio] of [
  ["100 %", "1"],
  ["1 %", "0.01"]
] as const) {
  await measure(
    `Roster, open mode, traced (${share})`,
    "app/main.ts",
    {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_TRACES_SAMPLER: "traceidratio",
      OTEL_TRACES_SAMPLER_ARG: ratio
    },
    open
  )
}
await receiver.stop()
/** Round trips to the store per request, by store: counted in process, not timed (see round-trips.ts). */
const roundTrips: Record<string, Record<Counted, number>> = {}
const countRoundTrips = only === undefined || only.test("round trips")
if (wanted("Roster, open mode, MongoDB (FerretDB)") || countRoundTrips) {
  const ferret = await startFerretDb()
  if (countRoundTrips) roundTrips.MongoDB = await mongoRoundTrips(ferret.uri)
  await measure(
    "Roster, open mode, MongoDB (FerretDB)",
    "app/main.ts",
    { ROSTER_STORE: "mongodb", MONGODB_URI: ferret.uri, MONGODB_DB: `bench${Date.now()}` },
    open
  )
  await ferret.stop()
}

if (countRoundTrips) roundTrips.SQLite = await sqliteRoundTrips()

// The default store: SQLite, one file on this machine's disk (a fresh one for each subject).
const onSqlite = async (
  label: string,
  env: Record<string, string>,
  list: (s: Server) => Promise<ReadonlyArray<Load>>
) => {
  const dataDir = mkdtempSync(join(tmpdir(), "roster-bench-"))
  await measure(label, "app/main.ts", { ...env, ROSTER_STORE: "sqlite", ROSTER_DATA_DIR: dataDir }, list)
  rmSync(dataDir, { recursive: true, force: true })
}
await onSqlite("Roster, open mode, SQLite", {}, open)
await onSqlite("Roster, secure, session token, SQLite", { ROSTER_MASTER_KEY: masterKey }, async (s) =>
  loads(await seedSecure(s.base, masterKey))
)
await onSqlite("Roster, secure, API key, SQLite", { ROSTER_MASTER_KEY: masterKey }, async (s) =>
  loads(await seedSecureKey(s.base, masterKey))
)
const accessTokens = wanted("access tokens") ? await accessTokenCost() : undefined
const asking = wanted("authorize") ? await authorizeCost() : undefined
const betterAuth = wanted("Better Auth")
  ? await measureBetterAuth(serverCore, { connections, seconds, core: loadCore })
  : undefined
const subjectNamed = (label: string) => subjects.find((subject) => subject.label === label)
const ratios = ratiosOf(
  storeCompared,
  subjectNamed("Roster, secure, session token"),
  subjectNamed("Roster, secure, session token, SQLite")
)
const againstSessions = [
  ...ratiosOf(
    keyCompared("memory"),
    subjectNamed("Roster, secure, session token"),
    subjectNamed("Roster, secure, API key")
  ),
  ...ratiosOf(
    keyCompared("SQLite"),
    subjectNamed("Roster, secure, session token, SQLite"),
    subjectNamed("Roster, secure, API key, SQLite")
  )
]

const ratio = (value: number, reference: number | undefined) =>
  reference === undefined ? "  -  " : (value / reference).toFixed(2)
const cell = (text: string, width: number) => text.padStart(width)
console.log(
  `\nwrk, ${connections} connections, ${seconds} s per endpoint; server on core ${serverCore}, load on core ${loadCore}`
)
for (const subject of [raw, bare, ...subjects]) {
  console.log(
    `\n${subject.label}: RSS after load ${subject.rssMb.toFixed(0)} MB, ${subject.rssSettledMb.toFixed(0)} MB a second later`
  )
  console.log(
    `  ${"endpoint".padEnd(48)}${cell("req/s", 9)}${cell("p50 ms", 8)}${cell("p99 ms", 8)}${cell("×raw", 7)}${cell("×bare", 7)}  status`
  )
  for (const load of loads()) {
    const m = subject.results[load.name]
    if (m === undefined) continue
    const floor = bare.results[load.floor] ?? bare.results[floorGet]
    console.log(
      `  ${load.name.padEnd(48)}${cell(m.requestsPerSecond.toFixed(0), 9)}${cell(m.p50Ms.toFixed(2), 8)}${cell(m.p99Ms.toFixed(2), 8)}` +
        `${cell(ratio(m.requestsPerSecond, raw.results[load.name]?.requestsPerSecond), 7)}${cell(ratio(m.requestsPerSecond, floor?.requestsPerSecond), 7)}  ${m.status || "mixed"}${m.socketErrors > 0 ? ` (${m.socketErrors} socket errors)` : ""}`
    )
  }
  if (subject.flood !== undefined) {
    const f = subject.flood
    console.log(
      `  login flood (${f.loginConnections} connections logging in while ${f.readConnections} read GET /api/v1/team/roles):\n` +
        `    reads alone   ${f.readsAlone.requestsPerSecond.toFixed(0)} req/s, p99 ${f.readsAlone.p99Ms.toFixed(2)} ms\n` +
        `    reads + flood ${f.readsDuringFlood.requestsPerSecond.toFixed(0)} req/s, p99 ${f.readsDuringFlood.p99Ms.toFixed(2)} ms (×${ratio(f.readsDuringFlood.p99Ms, f.readsAlone.p99Ms)} p99)\n` +
        `    logins        ${f.logins.requestsPerSecond.toFixed(0)} req/s, ${f.logins.non2xx} answered 503 busy or other non-2xx; RSS after ${f.rssAfterMb.toFixed(0)} MB`
    )
  }
}
if (metricsCost !== undefined) {
  console.log(
    `\nmetrics on against off, measured in pairs (median of 5 alternating rounds of 2 s; see bench/metrics-cost.ts)`
  )
  for (const [name, cost] of Object.entries(metricsCost.byEndpoint)) {
    console.log(`  ${name.padEnd(48)}${cell(`${(cost * 100).toFixed(1)} %`, 9)}`)
  }
  console.log(`  ${"mean".padEnd(48)}${cell(`${(metricsCost.mean * 100).toFixed(1)} %`, 9)}`)
}
const countingUs = countRoundTrips || wanted("Roster, open mode, metrics on") ? countingCostUs() : undefined
if (countingUs !== undefined) {
  console.log(
    `\nmetrics on: counting one answer costs ${countingUs.toFixed(2)} µs of CPU in process (see bench/counting-cost.ts)`
  )
}
if (Object.keys(roundTrips).length > 0) {
  const stores = Object.keys(roundTrips)
  console.log(`\nround trips to the store per request, a member's session (see bench/round-trips.ts)`)
  console.log(`  ${"request".padEnd(48)}${stores.map((store) => cell(store, 9)).join("")}`)
  for (const name of measured) {
    console.log(
      `  ${name.padEnd(48)}${stores.map((store) => cell(String(roundTrips[store]?.[name]), 9)).join("")}`
    )
  }
}
printRatios(
  "SQLite against the in-memory store, a member's session, in this run",
  ["memory", "SQLite"],
  ratios
)
printRatios(
  "An API key against a member's session, same permissions, in this run",
  ["session", "API key"],
  againstSessions
)
if (accessTokens !== undefined) printAccessTokenCost(accessTokens)
if (asking !== undefined) printAuthorizeCost(asking)
const againstBetterAuth = printAgainstBetterAuth(
  subjectNamed("Roster, secure, session token, SQLite"),
  betterAuth
)
// In process, once every server is stopped: nothing else is running on the machine's cores.
const forgot = process.env.BENCH_ONLY === undefined ? await forgotTiming() : undefined
if (forgot !== undefined) printForgotTiming(forgot)
const mfaLogin = process.env.BENCH_ONLY === undefined ? await mfaLoginTiming() : undefined
if (mfaLogin !== undefined) printMfaLoginTiming(mfaLogin)
const ssoLogin = process.env.BENCH_ONLY === undefined ? await ssoLoginTiming() : undefined
if (ssoLogin !== undefined) printSsoLoginTiming(ssoLogin)
const events = wanted("outbound events") ? await eventDelivery() : undefined
if (events !== undefined) printEventDelivery(events)
const floorOf = (load: string) => {
  const declared = loads().find((candidate) => candidate.name === load)
  return (bare.results[declared?.floor ?? load] ?? bare.results[floorGet])?.requestsPerSecond
}
const floorRatios = floorRatiosOf(subjects, floorOf)
printTargets(subjects, floorRatios, ratios, againstBetterAuth)
const belowBaseline = againstBaseline(floorRatios)
mkdirSync("bench/results", { recursive: true })
writeFileSync(
  "bench/results/latest.json",
  JSON.stringify(
    {
      at: new Date().toISOString(),
      seconds,
      connections,
      subjects: [raw, bare, ...subjects],
      roundTrips,
      storeRatios: ratios,
      apiKeyAgainstSession: againstSessions,
      againstBetterAuth,
      countingUs,
      metricsCost,
      forgotTiming: forgot,
      mfaLogin,
      ssoLogin,
      outboundEvents: events,
      accessTokens,
      authorize: asking,
      floorRatios,
      belowBaseline
    },
    null,
    2
  )
)
console.log("\nwritten: bench/results/latest.json")
