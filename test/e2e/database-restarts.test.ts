import { afterEach, describe, expect, it } from "vitest"
import { prepare } from "../../app/start.ts"
import { startFerretDb } from "../support/ferretdb.ts"
import { parsePrometheus, sampleOf } from "../support/prometheus.ts"
import { freePort, scriptCommand, startServer } from "../support/server-process.ts"

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A running instance of the service, on whichever runtime: what a client sees of it. */
interface Instance {
  readonly name: string
  /** What it logged of its 500s (why each ended so), where its output can be read. */
  readonly failures: () => ReadonlyArray<string>
  readonly fetch: (path: string, init?: RequestInit) => Promise<Response>
  readonly alive: () => boolean
}

/** An instance started as users start it, `npm run <script>` (Bun's or Deno's server). */
const startedBy = (script: string) => async (env: Record<string, string>, name: string) => {
  const server = await startServer(scriptCommand(script), env)
  cleanups.push(server.kill)
  return {
    name,
    failures: () =>
      server
        .output()
        .split("\n")
        .filter((line) => line.includes('"status":500')),
    fetch: (path, init) => fetch(`${server.url}${path}`, init),
    alive: () => server.process.exitCode === null
  } satisfies Instance
}

/** An instance on Node, as an embedder runs the web handler: built as the entrypoints build it. */
const inThisNode = async (env: Record<string, string>, name: string): Promise<Instance> => {
  const saved = { ...process.env }
  Object.assign(process.env, env)
  const { handler, dispose } = await prepare().finally(() => {
    process.env = saved
  })
  cleanups.push(dispose)
  return {
    name,
    // Its log lines go to this process' output, where the test runner shows them.
    failures: () => [],
    fetch: (path, init) =>
      handler(new Request(`http://127.0.0.1${path}`, init), { remoteAddress: "127.0.0.1" }),
    alive: () => true
  }
}

/** Seconds until `instance` answers a read and a write again, polling for at most `limit` seconds. */
const secondsUntilServing = async (instance: Instance, limit: number, round: number) => {
  const started = Date.now()
  for (let attempt = 0; Date.now() - started < limit * 1000; attempt++) {
    const read = await instance.fetch("/api/v1/team/roles").catch(() => undefined)
    if (read?.status === 200) {
      const key = `probe-${round}-${attempt}-${instance.name}`
      const write = await instance.fetch("/api/v1/team/role/add", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: key, roleKey: key })
      })
      if (write.status === 200) return (Date.now() - started) / 1000
    }
    await sleep(100)
  }
  return Number.POSITIVE_INFINITY
}

/** One add of a role, as a client that retries with its key until answered would send it. */
const addRole = (instance: Instance, key: string) =>
  instance
    .fetch("/api/v1/team/role/add", {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify({ name: key, roleKey: key })
    })
    .then(async (answer) => ({
      status: answer.status,
      code: answer.status === 200 ? undefined : ((await answer.json()) as { code?: string }).code
    }))
    .catch(() => ({ status: 0, code: "no answer" }))

/**
 * Clients calling all along, twenty at a time on each instance, so that the database dies under
 * requests in flight (without them the driver's monitors were never caught mid-heartbeat). Each
 * retries a refused write with the same Idempotency-Key, for up to a minute, until it is answered.
 */
const keepCalling = (instances: ReadonlyArray<Instance>) => {
  let running = true
  const attempts: Array<string> = []
  const unanswered: Array<string> = []
  const loops = instances.flatMap((instance, i) =>
    Array.from({ length: 20 }, async (_, j) => {
      for (let n = 0; running; n++) {
        const key = `load-${i}-${j}-${n}`
        const deadline = Date.now() + 60_000
        for (;;) {
          const answer = await addRole(instance, key)
          attempts.push(answer.code === undefined ? `${answer.status}` : `${answer.status} ${answer.code}`)
          if (answer.status === 200) break
          if (Date.now() > deadline) {
            unanswered.push(key)
            break
          }
          await sleep(answer.status === 409 ? 1000 : 100)
        }
        await sleep(20)
      }
    })
  )
  return {
    attempts,
    unanswered,
    stop: async () => {
      running = false
      await Promise.all(loops)
    }
  }
}

/** Every item of a listing, following its `Link: rel="next"` pages. */
const readAll = async <A>(instance: Instance, path: string) => {
  const items: Array<A> = []
  for (let next: string | undefined = path; next !== undefined; ) {
    const page: Response = await instance.fetch(next)
    items.push(...((await page.json()) as Array<A>))
    next = /<([^>]+)>; rel="next"/u.exec(page.headers.get("link") ?? "")?.[1]
  }
  return items
}

const runtimes = [
  { runtime: "Bun", start: startedBy("start") },
  { runtime: "Deno", start: startedBy("start:deno") },
  { runtime: "Node", start: inThisNode }
]

describe.each(runtimes)("instances on $runtime on a database that is killed and comes back", ({ start }) => {
  it("each of two instances answers again within 10 s of its return, twice over; every retried write is made exactly once", async () => {
    const ferret = await startFerretDb(`127.0.0.1:${await freePort()}`)
    cleanups.push(ferret.dispose)
    const env = { MONGODB_URI: ferret.uri, MONGODB_DB: "roster", ROSTER_METRICS: "on" }
    const servers = [await start(env, "a"), await start(env, "b")] as const
    const load = keepCalling(servers)
    for (let round = 0; round < 2; round++) {
      await sleep(500)
      await ferret.crash()
      await sleep(3000)
      await ferret.restart()
      const recovery = await Promise.all(servers.map((server) => secondsUntilServing(server, 20, round)))
      for (const seconds of recovery) expect(seconds).toBeLessThanOrEqual(10)
    }
    await load.stop()
    expect(load.attempts).toContain("503 unavailable")
    const unexpected = load.attempts.filter(
      (attempt) =>
        !["200", "503 unavailable", "503 outcome_unknown", "409 request_in_progress"].includes(attempt)
    )
    expect(unexpected, servers.flatMap((server) => server.failures()).join("\n")).toEqual([])
    expect(load.unanswered).toEqual([])
    const [first] = servers
    const roles = await readAll<{ id: number; roleKey: string }>(first, "/api/v1/team/roles?limit=200")
    const loadRoles = roles.filter((role) => role.roleKey.startsWith("load-"))
    expect(loadRoles.length, "one role per answered add").toBe(
      load.attempts.filter((a) => a === "200").length
    )
    // Each instance moves its entries into the record in batches, each second: the other's last
    // ones show within a few.
    const recordedIds = async () =>
      (
        await readAll<{ target: { id: string } }>(first, "/api/v1/audit/events?action=role.added&limit=200")
      ).map((entry) => entry.target.id)
    let addedIds = await recordedIds()
    const missing = () => loadRoles.some((role) => !addedIds.includes(String(role.id)))
    for (let tries = 0; tries < 20 && missing(); tries++) {
      await sleep(500)
      addedIds = await recordedIds()
    }
    expect(new Set(addedIds).size, "one audit entry per role added").toBe(addedIds.length)
    for (const role of loadRoles) expect(addedIds).toContain(String(role.id))
    for (const server of servers) {
      expect(server.alive()).toBe(true)
      const scrape = parsePrometheus(await (await server.fetch("/metrics")).text())
      expect(sampleOf(scrape, "roster_store_errors_total", { store: "mongodb" })).toBeGreaterThan(0)
    }
  }, 180_000)
})
