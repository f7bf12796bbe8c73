import type { Resource } from "../resources/resource.ts"
import type { Run } from "./database.ts"
import { tableOf } from "./kit-table.ts"
import { schemaLock } from "./migrations.ts"

/**
 * Makes a resource's table and indexes where they are missing, and adds the columns it gained
 * since (filled from each row's document): its migration, derived from its declaration. It runs
 * in a transaction holding the schema's lock, so that instances opening it at once make it once
 * (PostgreSQL's `IF NOT EXISTS` alone races).
 */
export const ensureTable = async <R extends object>(run: Run, declared: Resource<R>) => {
  const made = tableOf(declared)
  await run("SELECT pg_advisory_xact_lock(hashtext($1))", [schemaLock])
  const [create, ...indexes] = made.ddl
  await run(create ?? "")
  const present = new Set(
    (
      await run(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
        [declared.name]
      )
    ).map((row) => String(row.column_name))
  )
  const missing = declared.columns.filter((column) => column !== declared.key && !present.has(column))
  if (missing.length > 0) {
    for (const column of missing) await run(made.addColumn(column))
    // What rows stored before the columns existed hold in them, from their documents.
    for (const row of await run(`SELECT "key", "document" FROM ${made.table}`)) {
      await run(made.replaceSql, [...made.rowValues(made.recordOf(row)), String(row.key)])
    }
  }
  for (const statement of indexes) await run(statement)
}
