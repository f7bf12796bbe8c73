import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer, Option, Redacted } from "effect"
import { Client } from "pg"
import {
  postgresConfig,
  postgresDatabaseLayer,
  postgresKitLayer,
  postgresKitStores,
  postgresKitStoresFromConfig
} from "../../adapters/postgres/index.ts"
import { datedMigrations } from "../../adapters/postgres/migrations.ts"
import { apiKeys } from "../../adapters/resources/api-keys.ts"
import { RecordKit } from "../../adapters/resources/records.ts"
import { ApiKeyStore, AuditEntry, AuditEntryId, defaultOrganizationId } from "../../core/index.ts"
import { apiKeyRecord } from "../support/api-key-records.ts"
import { at, inParallel } from "../support/contract.ts"
import { scratchPostgres } from "../support/stores.ts"

/** Runs `sql` on the database at `url`, on a connection of its own, and answers its rows. */
const rowsOf = (url: string, sql: string, params: Array<unknown> = []) =>
  Effect.promise(async () => {
    const client = new Client({ connectionString: url })
    await client.connect()
    try {
      return (await client.query(sql, params)).rows as Array<Record<string, unknown>>
    } finally {
      await client.end()
    }
  })

const key = (n: number, lookup = n) => apiKeyRecord(n, { lookup })

const created = (n: number) =>
  new AuditEntry({
    id: AuditEntryId.make(`aud-pg-${n}`),
    at: at(n),
    action: "api_key.created",
    actor: { kind: "master" },
    target: { type: "api_key", id: `key-${n}` },
    changes: {},
    organizationId: defaultOrganizationId
  })

/** What PostgreSQL serves of the store ports, on the database at `url`. */
const storesOn = (url: string) => postgresKitStores({ url: Redacted.make(url) })

/** Starts an instance's database on `url` (its migrations) and stops it again. */
const start = (url: string) => Effect.scoped(Layer.build(postgresDatabaseLayer({ url: Redacted.make(url) })))

describe("PostgreSQL's kit", () => {
  it.effect("migrates once when three instances start at once, and not again at the next start", () =>
    Effect.gen(function* () {
      const url = yield* scratchPostgres
      yield* Effect.all([start(url), start(url), start(url)], { concurrency: "unbounded" })
      const applied = yield* rowsOf(url, "SELECT name, applied_at FROM roster_migrations ORDER BY name")
      assert.deepStrictEqual(
        applied.map((row) => row.name),
        datedMigrations().map((migration) => migration.name)
      )
      yield* start(url)
      assert.deepStrictEqual(
        yield* rowsOf(url, "SELECT name, applied_at FROM roster_migrations ORDER BY name"),
        applied
      )
    }).pipe(Effect.scoped)
  )

  it.effect("makes a resource's table once when instances open it at once, its columns typed", () =>
    Effect.gen(function* () {
      const url = yield* scratchPostgres
      const open = Effect.scoped(
        RecordKit.use((kit) => kit.open(apiKeys)).pipe(
          Effect.provide(
            postgresKitLayer.pipe(Layer.provide(postgresDatabaseLayer({ url: Redacted.make(url) })))
          )
        )
      )
      yield* Effect.all([open, open, open], { concurrency: "unbounded" })
      const columns = yield* rowsOf(
        url,
        "SELECT column_name, data_type, collation_name FROM information_schema.columns WHERE table_name = 'api_keys' ORDER BY ordinal_position"
      )
      assert.deepStrictEqual(
        columns.map((column) => [column.column_name, column.data_type, column.collation_name]),
        [
          ["key", "text", "C"],
          ["document", "jsonb", null],
          ["organizationId", "text", "C"],
          ["lookup", "text", "C"],
          ["createdAt", "timestamp with time zone", null],
          ["permissions", "jsonb", null]
        ]
      )
      const indexes = yield* rowsOf(
        url,
        "SELECT indexname FROM pg_indexes WHERE tablename = 'api_keys' ORDER BY indexname"
      )
      assert.deepStrictEqual(
        indexes.map((index) => index.indexname),
        ["api_keys__by__organizationId__createdAt", "api_keys__unique__lookup", "api_keys_pkey"]
      )
    }).pipe(Effect.scoped)
  )

  it.effect("keeps the records in their table, one of racing writes of a unique value, its entry alone", () =>
    Effect.gen(function* () {
      const url = yield* scratchPostgres
      const exits = yield* Effect.provide(
        Effect.gen(function* () {
          const store = yield* ApiKeyStore
          return yield* inParallel(6, (n) => Effect.exit(store.insert(key(n + 1, 7), created(n + 1))))
        }),
        storesOn(url)
      ).pipe(Effect.scoped)
      assert.strictEqual(exits.filter(Exit.isSuccess).length, 1)
      const stored = yield* rowsOf(url, `SELECT "key", "lookup" FROM api_keys`)
      assert.deepStrictEqual(
        stored.map((row) => row.lookup),
        [key(1, 7).lookup]
      )
      const audited = yield* rowsOf(url, "SELECT target_id FROM audit_events")
      assert.deepStrictEqual(
        audited.map((row) => row.target_id),
        stored.map((row) => row.key)
      )
    }).pipe(Effect.scoped)
  )

  it.effect(
    "is unavailable (503) while the server is out of reach, and answers again once connections are back",
    () =>
      Effect.gen(function* () {
        const refused = yield* Effect.exit(start("postgres://postgres@127.0.0.1:1/roster"))
        assert.isTrue(Exit.isFailure(refused) && Exit.hasFails(refused))
        assert.include(String(Exit.isFailure(refused) ? refused.cause : ""), "StoreUnavailable")
        const url = yield* scratchPostgres
        yield* Effect.gen(function* () {
          const store = yield* ApiKeyStore
          yield* store.insert(key(1), created(1))
          // The server ends every connection of the pool, as a restart does.
          yield* rowsOf(
            url,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
          )
          const found = yield* store
            .findByLookup(key(1).lookup)
            .pipe(Effect.retry({ while: (error) => error._tag === "StoreUnavailable", times: 5 }))
          assert.isTrue(Option.isSome(found))
        }).pipe(Effect.provide(storesOn(url)))
      }).pipe(Effect.scoped)
  )

  it.effect(
    "reads DATABASE_URL redacted, and refuses one that is no PostgreSQL URL without repeating it",
    () =>
      Effect.gen(function* () {
        const read = (url: string) =>
          Effect.exit(
            Effect.gen(function* () {
              return yield* postgresConfig
            }).pipe(
              Effect.provideService(
                ConfigProvider.ConfigProvider,
                ConfigProvider.fromEnv({ env: { DATABASE_URL: url } })
              )
            )
          )
        const accepted = yield* read("postgresql://roster:secret@db.example/roster?max=4")
        assert.isTrue(Exit.isSuccess(accepted))
        if (Exit.isSuccess(accepted)) {
          assert.strictEqual(
            Redacted.value(accepted.value.url),
            "postgresql://roster:secret@db.example/roster?max=4"
          )
          assert.notInclude(String(accepted.value.url), "secret")
        }
        const refused = String(yield* read("mysql://roster:secret@db.example/roster"))
        assert.include(refused, "DATABASE_URL must be a postgres:// or postgresql:// URL")
        assert.notInclude(refused, "secret")
      })
  )

  it.effect("builds its stores on the database DATABASE_URL names, its pool as large as `max` says", () =>
    Effect.gen(function* () {
      const url = yield* scratchPostgres
      yield* Effect.gen(function* () {
        const store = yield* ApiKeyStore
        yield* inParallel(6, (n) => store.insert(key(n + 1), created(n + 1)))
        const connections = yield* rowsOf(
          url,
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        assert.isAtMost(Number(connections[0]?.n), 2)
        assert.strictEqual((yield* store.page(undefined, 10)).length, 6)
      }).pipe(
        Effect.provide(postgresKitStoresFromConfig),
        Effect.provideService(
          ConfigProvider.ConfigProvider,
          ConfigProvider.fromEnv({ env: { DATABASE_URL: `${url}?max=2` } })
        )
      )
    }).pipe(Effect.scoped)
  )
})
