import { afterEach, describe, expect, it } from "vitest"
import { startFerretDb } from "../support/ferretdb.ts"
import { freePort, post, type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Seconds until `server` answers a read and a write again, polling for at most `limit` seconds. */
const secondsUntilServing = async (server: RunningServer, limit: number, round: number) => {
  const started = Date.now()
  for (let attempt = 0; Date.now() - started < limit * 1000; attempt++) {
    const read = await fetch(`${server.url}/api/v1/team/roles`).catch(() => undefined)
    if (read?.status === 200) {
      const key = `probe-${round}-${attempt}-${server.url.slice(-5)}`
      const write = await post(server, "/api/v1/team/role/add", { name: key, roleKey: key })
      if (write.status === 200) return (Date.now() - started) / 1000
    }
    await sleep(100)
  }
  return Number.POSITIVE_INFINITY
}

/**
 * Clients calling all along, twenty at a time on each instance, so that the database dies under
 * requests in flight: without them the driver's monitors were never caught mid-heartbeat.
 */
const keepCalling = (servers: ReadonlyArray<RunningServer>) => {
  let running = true
  const statuses: Array<number> = []
  const loops = servers.flatMap((server, i) =>
    Array.from({ length: 20 }, async (_, j) => {
      for (let n = 0; running; n++) {
        const key = `load-${i}-${j}-${n}`
        const answer = await post(server, "/api/v1/team/role/add", { name: key, roleKey: key }).catch(
          () => undefined
        )
        statuses.push(answer?.status ?? 0)
        await sleep(20)
      }
    })
  )
  return {
    statuses,
    stop: async () => {
      running = false
      await Promise.all(loops)
    }
  }
}

describe("instances on a database that is killed and comes back", () => {
  it("each of two instances answers again within 10 s of its return, twice over, and never with a 500", async () => {
    const ferret = await startFerretDb(`127.0.0.1:${await freePort()}`)
    cleanups.push(ferret.dispose)
    const servers: Array<RunningServer> = []
    for (let i = 0; i < 2; i++) {
      const server = await startServer(scriptCommand("start"), {
        MONGODB_URI: ferret.uri,
        MONGODB_DB: "roster"
      })
      cleanups.push(server.kill)
      servers.push(server)
    }
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
    expect(load.statuses).toContain(503)
    expect(load.statuses.filter((status) => status !== 200 && status !== 503)).toEqual([])
    for (const server of servers) expect(server.process.exitCode).toBeNull()
  }, 180_000)
})
