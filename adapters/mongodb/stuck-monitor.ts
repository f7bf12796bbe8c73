import type { Collection, Db, Document, MongoClient } from "mongodb"

/**
 * A MongoDB client that is replaced by a fresh one when its server monitor is stuck. Measured under
 * Bun with two instances and requests in flight while the database was killed and restarted: in
 * some runs a monitor's heartbeat started and never ended (neither succeeded nor failed, its socket
 * timeout never firing), so the client kept failing server selection with the error it last saw and
 * answered 503 until the process was restarted. The driver bounds a heartbeat by its socket
 * timeout; one pending well past that bound is taken as stuck, and the client is swapped. Node
 * never showed it; there the watch costs a timer.
 */
export interface ReplacingClients {
  /** The database on the client in use: every collection reached through it follows a swap. */
  readonly db: Db
  /** How many times the client was replaced. */
  readonly replacements: () => number
  readonly close: () => Promise<void>
}

/** A heartbeat may await the server's news this long (the driver's default heartbeat frequency). */
const awaitedHeartbeatMs = 10_000
/** Beyond the driver's own bound on a heartbeat, before it is taken as stuck. */
const graceMs = 1_000

const boundTo = <T extends object>(target: T, property: string | symbol) => {
  const value = Reflect.get(target, property, target)
  return typeof value === "function" ? value.bind(target) : value
}

export const replacingStuckClients = (
  make: () => MongoClient,
  options: { readonly database: string; readonly connectTimeoutMs: number; readonly onReplace?: () => void }
): ReplacingClients => {
  let client: MongoClient
  let db: Db
  let collections = new Map<string, Collection<Document>>()
  let replacements = 0
  /** Heartbeats under way, by server address: when each is overdue. */
  const overdueAt = new Map<string, number>()

  const use = (fresh: MongoClient) => {
    client = fresh
    db = fresh.db(options.database)
    collections = new Map()
    overdueAt.clear()
    fresh.on("serverHeartbeatStarted", (event) => {
      const bound = options.connectTimeoutMs + (event.awaited ? awaitedHeartbeatMs : 0) + graceMs
      overdueAt.set(event.connectionId, Date.now() + bound)
    })
    fresh.on("serverHeartbeatSucceeded", (event) => overdueAt.delete(event.connectionId))
    fresh.on("serverHeartbeatFailed", (event) => overdueAt.delete(event.connectionId))
  }
  use(make())

  const watchdog = setInterval(() => {
    const now = Date.now()
    for (const deadline of overdueAt.values()) {
      if (deadline > now) continue
      const stuck = client
      use(make())
      replacements++
      options.onReplace?.()
      // Its operations in flight fail as unavailable, as they would have anyway.
      stuck.close().catch(() => undefined)
      return
    }
  }, 500)
  watchdog.unref?.()

  const collectionNamed = (name: string) => {
    let current = collections.get(name)
    if (current === undefined) {
      current = db.collection(name)
      collections.set(name, current)
    }
    return current
  }
  const followingCollection = (name: string) =>
    new Proxy({} as Collection<Document>, { get: (_, property) => boundTo(collectionNamed(name), property) })
  const following = new Map<string, Collection<Document>>()
  const collection = (name: string) => {
    let proxy = following.get(name)
    if (proxy === undefined) {
      proxy = followingCollection(name)
      following.set(name, proxy)
    }
    return proxy
  }

  return {
    db: new Proxy({} as Db, {
      get: (_, property) => (property === "collection" ? collection : boundTo(db, property))
    }),
    replacements: () => replacements,
    close: async () => {
      clearInterval(watchdog)
      await client.close()
    }
  }
}
