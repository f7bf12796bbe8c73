import { Config, Context, Effect, Layer, Redacted, Schema } from "effect"
import { Pool, type PoolClient } from "pg"
import type { StoreUnavailable } from "../../core/index.ts"
import { classify, isConnectionFailure, type UniqueViolation } from "./failures.ts"
import { migrate } from "./migrations.ts"

export type Row = Record<string, unknown>

/** Runs one statement (`$1`… bound to `params`) and answers its rows. */
export type Run = (text: string, params?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<Row>>

/** The reads and transactions every PostgreSQL store makes, on the pool of the layer. */
export class PostgresDatabase extends Context.Service<
  PostgresDatabase,
  {
    /** One statement, outside any transaction: what it reads was committed. */
    readonly read: (
      text: string,
      params?: ReadonlyArray<unknown>
    ) => Effect.Effect<ReadonlyArray<Row>, StoreUnavailable>
    /** `use` in one transaction: committed whole when it resolves, rolled back whole when it throws. */
    readonly transaction: <A>(
      use: (run: Run) => Promise<A>
    ) => Effect.Effect<A, StoreUnavailable | UniqueViolation>
  }
>()("roster/postgres/PostgresDatabase") {}

export interface PostgresOptions {
  /** `postgres://` or `postgresql://`; `?max=N` sizes the pool (10 by default). */
  readonly url: Redacted.Redacted<string>
}

/** `DATABASE_URL`, kept redacted (a refusal names what it must be, never what it is). */
export const postgresConfig: Config.Config<PostgresOptions> = Config.schema(
  Schema.RedactedFromValue(
    Schema.String.check(
      Schema.isPattern(/^postgres(ql)?:\/\//, {
        message: "DATABASE_URL must be a postgres:// or postgresql:// URL"
      })
    )
  ),
  "DATABASE_URL"
).pipe(Config.map((url) => ({ url })))

/** The pool's settings from the URL: its size; how long a connection or a statement may take. */
const poolOf = (url: string) => {
  const max = Number(new URL(url).searchParams.get("max") ?? 10)
  return new Pool({
    connectionString: url,
    max: Number.isInteger(max) && max > 0 ? max : 10,
    connectionTimeoutMillis: 3000,
    query_timeout: 10_000
  })
}

const attempt = <A>(run: () => Promise<A>) =>
  Effect.tryPromise({ try: run, catch: (error) => error }).pipe(Effect.catch(classify))

const transactionOn =
  (pool: Pool) =>
  <A>(use: (run: Run) => Promise<A>) =>
    attempt(async () => {
      const client: PoolClient = await pool.connect()
      let failure: unknown
      try {
        await client.query("BEGIN")
        const answer = await use((text, params) =>
          client.query(text, params as Array<unknown>).then((result) => result.rows)
        )
        await client.query("COMMIT")
        return answer
      } catch (error) {
        failure = error
        await client.query("ROLLBACK").catch(() => undefined)
        throw error
      } finally {
        // A broken connection is closed, never handed to the next transaction.
        client.release(isConnectionFailure(failure) ? (failure as Error) : undefined)
      }
    })

/**
 * A pool on the database for the layer's lifetime, its migrations applied before the first
 * request (`migrate`), closed with the layer. A connection the server drops while idle is
 * replaced by the pool: the next statement opens a fresh one, so the stores answer again once the
 * server is back, without a restart.
 */
export const postgresDatabaseLayer = (options: PostgresOptions) =>
  Layer.effect(
    PostgresDatabase,
    Effect.gen(function* () {
      const pool = yield* Effect.acquireRelease(
        Effect.sync(() => poolOf(Redacted.value(options.url))),
        (pool) => Effect.promise(() => pool.end())
      )
      // An idle connection's failure is reported here; the next use of the pool finds out for itself.
      pool.on("error", () => undefined)
      yield* attempt(() => migrate(pool)).pipe(Effect.catchTag("UniqueViolation", Effect.die))
      return PostgresDatabase.of({
        read: (text, params) =>
          attempt(() => pool.query(text, params as Array<unknown>).then((result) => result.rows)).pipe(
            Effect.catchTag("UniqueViolation", Effect.die)
          ),
        transaction: transactionOn(pool)
      })
    })
  )
