import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Layer, Redacted } from "effect"
import { MongoClient } from "mongodb"
import { afterAll, describe, expect, it } from "vitest"
import { mongoStores } from "../../adapters/mongodb/index.ts"
import { openBunSqlite, sqliteStores } from "../../adapters/sqlite/index.ts"
import {
  countedRelayIntervalMs,
  countingOpen,
  type Measured,
  roundTripsOf,
  startCountingProxy,
  type Tally
} from "../../bench/round-trips.ts"
import { masterKey, startApi } from "../support/http.ts"
import { mongoUri } from "../support/stores.ts"

const cleanups: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** SQLite in the run under Bun (whose driver it is), MongoDB through a counting proxy otherwise. */
const onSqlite = process.env.ROSTER_TEST_STORE === "sqlite"

const countedStores = async () => {
  if (onSqlite) {
    const tally: Tally = { commands: 0 }
    const directory = mkdtempSync(join(tmpdir(), "roster-counted-"))
    cleanups.push(() => rmSync(directory, { recursive: true, force: true }))
    const path = join(directory, "roster.db")
    return {
      tally,
      // Each read's statements, as on its first request (see bench/store-round-trips.ts).
      stores: Layer.orDie(
        sqliteStores({ path, open: countingOpen(openBunSqlite, tally), rememberReads: false })
      ) as never
    }
  }
  const proxy = await startCountingProxy(new URL(mongoUri()).host)
  const database = `roster_counted_${crypto.randomUUID().replaceAll("-", "")}`
  cleanups.push(proxy.stop, async () => {
    const client = new MongoClient(mongoUri())
    await client.db(database).dropDatabase()
    await client.close()
  })
  const uri = Redacted.make(`mongodb://${proxy.address}/?directConnection=true`)
  return {
    tally: proxy.tally,
    stores: Layer.orDie(mongoStores({ uri, database, auditRelayIntervalMs: countedRelayIntervalMs }))
  }
}

/**
 * What each request costs the store, as measured; a change in either direction shows here. A
 * session is authenticated in one read on both (on MongoDB from the snapshot the session carries),
 * and so is an API key (its record carries its permissions; its minute of use is written at most
 * once a minute, off the request, and never inside a count: the clock stands still while counting),
 * so an authenticated read is two, and a write at most five. On MongoDB the audit entry a write
 * left on its document is moved into the record, and taken off the document, in batches outside
 * any request but the one that fills a batch (hence a fraction). A key (`Idempotency-Key`) adds its
 * claim and its answer's keeping. Over five, on MongoDB only, which has no transaction over
 * documents: a keyed write's answer is kept by the kit's modify, a read and a guarded write (one
 * more than the hand-written store's update before the idempotency keys moved onto the kit); a
 * member added writes its account and its membership apart, besides the session, the
 * role read for the ceiling and then counted a holder by the member's write, who holds its login and
 * the subscriptions for the seats; an account's change also
 * fences what session snapshots copy of it (up, snapshots away, down with the copy).
 */
const expected: Record<Measured, number> = onSqlite
  ? {
      "GET /api/v1/auth/me": 2,
      "GET /api/v1/team/members": 2,
      "GET /api/v1/team/roles/{id}": 2,
      "PATCH /api/v1/team/roles/{id}": 3,
      "PATCH /api/v1/team/roles/{id} (Idempotency-Key)": 5,
      "POST /api/v1/team/role/add": 2,
      "POST /api/v1/team/role-permission-detail": 3,
      "DELETE /api/v1/team/role-permission-detail/{id}": 3,
      "POST /api/v1/team/add": 5,
      "PATCH /api/v1/team/members/{id}": 5,
      "GET /api/v1/team/members (master key)": 1,
      "GET /api/v1/team/members (API key)": 2
    }
  : {
      "GET /api/v1/auth/me": 2,
      "GET /api/v1/team/members": 2,
      "GET /api/v1/team/roles/{id}": 2,
      "PATCH /api/v1/team/roles/{id}": 3,
      "PATCH /api/v1/team/roles/{id} (Idempotency-Key)": 6,
      "POST /api/v1/team/role/add": 3,
      "POST /api/v1/team/role-permission-detail": 5,
      "DELETE /api/v1/team/role-permission-detail/{id}": 5,
      "POST /api/v1/team/add": 7.8,
      "PATCH /api/v1/team/members/{id}": 8,
      "GET /api/v1/team/members (master key)": 1,
      "GET /api/v1/team/members (API key)": 2
    }

describe(`round trips to the store per request, on ${onSqlite ? "SQLite" : "MongoDB"}`, () => {
  it("are what they are measured to be, a session's authentication included", {
    timeout: 60_000
  }, async () => {
    const { tally, stores } = await countedStores()
    const api = await startApi({ override: stores })
    const counts = await roundTripsOf(api.web.handler, tally, masterKey)
    expect(counts).toEqual(expected)
  })
})
