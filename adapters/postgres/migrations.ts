import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Pool } from "pg"

/** The folder of dated SQL files (`YYYY-MM-DD-what.sql`), applied in the order of their names. */
export const migrationsFolder = fileURLToPath(new URL("./migrations/", import.meta.url))

/**
 * What every change of the schema takes, for as long as it runs: the migrations at start, and the
 * tables a resource's declaration derives when it is opened (two instances never make one twice).
 */
export const schemaLock = "roster/schema"

/** A migration may take long, and a start waits for another's to end: longer than a request's statement. */
const patiently = { query_timeout: 10 * 60_000 }

const dated = /^\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.sql$/

/** The migrations in `folder`, oldest first. */
export const datedMigrations = (folder = migrationsFolder) =>
  readdirSync(folder)
    .filter((name) => dated.test(name))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(folder, name), "utf8") }))

/**
 * Applies the migrations the database lacks, each in a transaction with its row in
 * `roster_migrations`, holding the schema's advisory lock throughout: instances starting at once
 * wait for each other, and the later ones find everything applied. The lock is the session's, so
 * a start that dies midway releases it with its connection.
 */
export const migrate = async (pool: Pool, folder = migrationsFolder) => {
  const migrations = datedMigrations(folder)
  const client = await pool.connect()
  let broken: unknown
  try {
    await client.query({ text: "SELECT pg_advisory_lock(hashtext($1))", values: [schemaLock], ...patiently })
    await client.query(
      "CREATE TABLE IF NOT EXISTS roster_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
    )
    const applied = new Set(
      (await client.query<{ name: string }>("SELECT name FROM roster_migrations")).rows.map((row) => row.name)
    )
    for (const migration of migrations) {
      if (applied.has(migration.name)) continue
      await client.query("BEGIN")
      try {
        await client.query({ text: migration.sql, ...patiently })
        await client.query("INSERT INTO roster_migrations (name) VALUES ($1)", [migration.name])
        await client.query("COMMIT")
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined)
        throw error
      }
    }
    await client.query("SELECT pg_advisory_unlock(hashtext($1))", [schemaLock])
  } catch (error) {
    broken = error
    throw error
  } finally {
    // A connection that failed is not handed to another query: released broken, it is closed.
    client.release(broken instanceof Error ? broken : undefined)
  }
}
