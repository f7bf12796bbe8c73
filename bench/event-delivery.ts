// What outbound events cost and how fast they go, on SQLite, the default store: events delivered
// per second to a receiver verifying each one, and the service's throughput for reads while its
// sender works through a backlog against the same while it is idle, in three alternating pairs
// (the median pair kept). The backlog is queued to a disabled endpoint (test events are, and wait
// for it); enabling it makes the sender busy, disabling it idle. Part of
// `npm run bench`; alone: `bun bench/event-delivery.ts`.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { spawn } from "bun"
import { type Server, startBun } from "./servers.ts"
import { benchSettings, type Measured, pinnedTo, wrkWarmed } from "./wrk.ts"

const masterKey = "event-bench-master-key-0123456789abcdef0123"
const { seconds, connections, serverCore, loadCore } = benchSettings

export interface EventDelivery {
  /** Events delivered per second by one instance, nothing else running. */
  readonly deliveredPerSecond: number
  readonly backlog: number
  readonly idle: Measured
  readonly busy: Measured
  /** How many of the backlog were delivered while the busy load ran. */
  readonly deliveredDuringLoad: number
  /** The share of read throughput the busy sender took. */
  readonly cost: number
}

const startReceiver = async () => {
  const child = spawn([...pinnedTo(loadCore), "bun", "bench/event-receiver.ts"], {
    stdout: "pipe",
    stderr: "inherit"
  })
  const reader = child.stdout.getReader()
  let seen = ""
  while (!/listening on (\d+)/.test(seen)) {
    const chunk = await reader.read()
    if (chunk.done) throw new Error(`the receiver did not start: ${seen}`)
    seen += new TextDecoder().decode(chunk.value)
  }
  const url = `http://127.0.0.1:${/listening on (\d+)/.exec(seen)?.[1]}`
  return {
    url,
    count: async () => ((await (await fetch(`${url}/count`)).json()) as { received: number }).received,
    stop: () => child.kill()
  }
}

const call = async (server: Server, method: string, path: string, body?: unknown) => {
  const answer = await fetch(`${server.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${masterKey}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`)
  return answer.json() as Promise<Record<string, unknown>>
}

/** Queues `count` test events to the endpoint, disabled meanwhile, 32 requests at a time. */
const queueBacklog = async (server: Server, webhookId: string, count: number) => {
  await call(server, "PATCH", `/api/v1/organization/webhooks/${webhookId}`, { enabled: false })
  let queued = 0
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (queued < count) {
        queued++
        await call(server, "POST", `/api/v1/organization/webhooks/${webhookId}/test`)
      }
    })
  )
}

const until = async (done: () => Promise<boolean>) => {
  while (!(await done())) await Bun.sleep(20)
}

export const eventDelivery = async (backlog = 20_000): Promise<EventDelivery> => {
  const dataDir = mkdtempSync(join(tmpdir(), "roster-events-bench-"))
  const receiver = await startReceiver()
  const server = await startBun(
    "app/main.ts",
    {
      ROSTER_PLANS_FILE: "config/plans.json",
      ROSTER_STORE: "sqlite",
      ROSTER_DATA_DIR: dataDir,
      ROSTER_MASTER_KEY: masterKey,
      ROSTER_WEBHOOK_ALLOW_PRIVATE: "on"
    },
    serverCore
  )
  try {
    const webhook = await call(server, "POST", "/api/v1/organization/webhooks", {
      url: `${receiver.url}/events`,
      events: ["webhook.test"]
    })
    const webhookId = String(webhook.id)
    await fetch(`${receiver.url}/secret`, { method: "POST", body: String(webhook.secret) })
    const enable = () =>
      call(server, "PATCH", `/api/v1/organization/webhooks/${webhookId}`, { enabled: true })

    const alone = Math.min(backlog, 5000)
    await queueBacklog(server, webhookId, alone)
    const started = performance.now()
    await enable()
    await until(async () => (await receiver.count()) >= alone)
    const deliveredPerSecond = alone / ((performance.now() - started) / 1000)

    const reads = [
      {
        method: "GET" as const,
        path: "/api/v1/team/roles",
        headers: { Authorization: `Bearer ${masterKey}` }
      }
    ]
    const load = () => wrkWarmed(server.base, reads, { connections, seconds, core: loadCore })
    const disable = () =>
      call(server, "PATCH", `/api/v1/organization/webhooks/${webhookId}`, { enabled: false })
    await queueBacklog(server, webhookId, backlog)
    // Idle and busy in alternating pairs, the median pair kept: one run against another drifts.
    const pairs: Array<{ idle: Measured; busy: Measured; delivered: number }> = []
    for (let round = 0; round < 3; round++) {
      await disable()
      const idle = await load()
      const before = await receiver.count()
      await enable()
      const busy = await load()
      pairs.push({ idle, busy, delivered: (await receiver.count()) - before })
    }
    const costOf = ({ idle, busy }: (typeof pairs)[number]) =>
      1 - busy.requestsPerSecond / idle.requestsPerSecond
    const median = [...pairs].sort((a, b) => costOf(a) - costOf(b))[1] as (typeof pairs)[number]
    return {
      deliveredPerSecond,
      backlog,
      idle: median.idle,
      busy: median.busy,
      deliveredDuringLoad: median.delivered,
      cost: costOf(median)
    }
  } finally {
    await server.stop()
    receiver.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export const printEventDelivery = (result: EventDelivery) => {
  console.log(
    `\noutbound events on SQLite, to a receiver verifying each (see bench/event-delivery.ts)\n` +
      `  delivered, nothing else running        ${result.deliveredPerSecond.toFixed(0).padStart(8)} events/s\n` +
      `  reads, sender idle                     ${result.idle.requestsPerSecond.toFixed(0).padStart(8)} req/s, p99 ${result.idle.p99Ms.toFixed(2)} ms\n` +
      `  reads, sender with a backlog of ${String(result.backlog).padEnd(6)} ${result.busy.requestsPerSecond.toFixed(0).padStart(8)} req/s, p99 ${result.busy.p99Ms.toFixed(2)} ms ` +
      `(${(result.cost * 100).toFixed(1)} % fewer; ${result.deliveredDuringLoad} delivered meanwhile)`
  )
}

if (import.meta.main) printEventDelivery(await eventDelivery())
