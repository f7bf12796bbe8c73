// `npm run bench:heap`: what a server's heap holds after the bench's open-mode load, from a heap
// snapshot taken after a full collection, beside its RSS. `SUBJECT` is `roster` (from the sources,
// the default), `built` (the production bundle) or `bare` (the bare HttpApi app); `BALLAST_MB` makes
// the subject hold that much more from its start. Writes bench/results/heap-<subject>.json.
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loads } from "./loads.ts"
import { seedOpen } from "./seed.ts"
import { startBun } from "./servers.ts"
import { benchSettings, ensureWrk, wrkWarmed } from "./wrk.ts"

const entries = { roster: "../app/main.ts", built: "../build/main.js", bare: "./bare-server.ts" }
const subject = (process.env.SUBJECT ?? "roster") as keyof typeof entries
if (!(subject in entries)) throw new Error(`SUBJECT is one of ${Object.keys(entries).join(", ")}`)
const { seconds, connections, serverCore, loadCore } = benchSettings
const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`

interface Census {
  readonly asLeft: Record<"heapSize" | "heapCapacity" | "extraMemorySize", number>
  readonly collected: Record<"heapSize" | "heapCapacity" | "extraMemorySize", number>
  readonly kinds: ReadonlyArray<{ readonly kind: string; readonly bytes: number; readonly count: number }>
}

ensureWrk()
if (subject === "built") {
  await Bun.spawn(["npm", "run", "build:server", "--silent"], { stdout: "ignore", stderr: "inherit" }).exited
}
const out = join(tmpdir(), `roster-heap-${process.pid}.json`)
const server = await startBun(
  "bench/censused.ts",
  {
    CENSUS_ENTRY: entries[subject],
    CENSUS_OUT: out,
    ROSTER_PLANS_FILE: "config/plans.json",
    ROSTER_STORE: "memory"
  },
  serverCore
)
for (const load of loads(await seedOpen(server.base))) {
  await wrkWarmed(server.base, load.requests, { connections, seconds, core: loadCore })
}
const rssAtEnd = await server.rssMb()
process.kill(server.pid, "SIGUSR2")
await Bun.sleep(1000)
// As the bench reads it: before the census, whose collection and snapshot move it.
const rssSecondLater = await server.rssMb()
process.kill(server.pid, "SIGUSR2")
let census: Census | undefined
for (let waited = 0; census === undefined; waited += 200) {
  if (waited > 60_000) throw new Error("The server wrote no census within a minute")
  await Bun.sleep(200)
  census = await Bun.file(out)
    .json()
    .catch(() => undefined)
}
await server.stop()
rmSync(out, { force: true })

const figures = (label: string, stats: Census["asLeft"]) =>
  `${label}: heap ${megabytes(stats.heapSize)} (outside cells ${megabytes(stats.extraMemorySize)}), capacity ${megabytes(stats.heapCapacity)}`
console.log(
  [
    `${subject}${process.env.BALLAST_MB === undefined ? "" : ` holding ${process.env.BALLAST_MB} MB more`}: RSS ${rssAtEnd.toFixed(0)} MB at the load's end, ${rssSecondLater.toFixed(0)} MB a second later`,
    figures("as the load left it", census.asLeft),
    figures("after a full collection", census.collected),
    "what survived it, by kind:",
    ...census.kinds
      .slice(0, 15)
      .map(
        ({ kind, bytes, count }) => `  ${megabytes(bytes).padStart(8)} ${String(count).padStart(7)}  ${kind}`
      )
  ].join("\n")
)
mkdirSync("bench/results", { recursive: true })
writeFileSync(
  `bench/results/heap-${subject}.json`,
  JSON.stringify({ rssAtEnd, rssSecondLater, ...census }, null, 2)
)
