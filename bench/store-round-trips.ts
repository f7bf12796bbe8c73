import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Layer, Redacted } from "effect"
import { RequestLog } from "../adapters/http/edge/request-log.ts"
import { makeWebHandler } from "../adapters/http/web-handler.ts"
import { mongoStores } from "../adapters/mongodb/index.ts"
import { webhookVerifierLayer } from "../adapters/payments/webhook-verifier-layer.ts"
import { openBunSqlite, sqliteStores } from "../adapters/sqlite/index.ts"
import { corePortsOn } from "../app/roster-layer.ts"
import {
  countedRelayIntervalMs,
  countingOpen,
  roundTripsOf,
  startCountingProxy,
  type Tally
} from "./round-trips.ts"

const masterKey = "bench-round-trips-master-key-0123456789abcdef"

/** Round trips per request with Roster's web handler, in process, on `stores`, counted by `tally`. */
const countedOn = async (
  stores: ReturnType<typeof sqliteStores> | ReturnType<typeof mongoStores>,
  tally: Tally
) => {
  const web = await makeWebHandler(
    Layer.mergeAll(
      corePortsOn(stores, { masterKey }),
      webhookVerifierLayer({ scheme: "unsigned" }),
      Layer.succeed(RequestLog)(() => {})
    ),
    { maxBodyBytes: 1024 * 1024, openLocal: false }
  )
  try {
    return await roundTripsOf(
      (request) => web.handler(request, { remoteAddress: "127.0.0.1" }),
      tally,
      masterKey
    )
  } finally {
    await web.dispose()
  }
}

/** On SQLite, a file of its own: statements and transactions counted. */
export const sqliteRoundTrips = async () => {
  const directory = mkdtempSync(join(tmpdir(), "roster-round-trips-"))
  const tally: Tally = { commands: 0 }
  try {
    const stores = sqliteStores({
      path: join(directory, "roster.db"),
      open: countingOpen(openBunSqlite, tally),
      // Each read's statements, as on its first request: remembered, a repeated read runs none.
      rememberReads: false
    })
    return await countedOn(stores, tally)
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

/** On the MongoDB at `uri` (a database of its own), through a proxy counting commands. */
export const mongoRoundTrips = async (uri: string) => {
  const proxy = await startCountingProxy(new URL(uri).host)
  try {
    const stores = mongoStores({
      uri: Redacted.make(`mongodb://${proxy.address}/?directConnection=true`),
      database: `round_trips_${Date.now()}`,
      auditRelayIntervalMs: countedRelayIntervalMs
    })
    return await countedOn(stores, proxy.tally)
  } finally {
    await proxy.stop()
  }
}
