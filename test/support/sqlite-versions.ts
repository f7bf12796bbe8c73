import { Effect } from "effect"
import type { SqliteConnection } from "../../adapters/sqlite/connection.ts"
import { openBunSqlite } from "../../adapters/sqlite/index.ts"

/** A file brought to `version` by the steps that made it then: what the stores of that version wrote on. */
export const fileAtVersion = (path: string, version: number) =>
  Effect.promise(async () => {
    const db = await openBunSqlite(path)
    for (let step = 1; step <= version; step++) {
      const module = (await import(`../../adapters/sqlite/schema-v${step}.ts`)) as Record<
        string,
        string | ((db: SqliteConnection) => void)
      >
      const made = module[`schemaV${step}`]
      if (typeof made === "string") db.exec(made)
      else made?.(db)
    }
    db.exec(`PRAGMA user_version = ${version}`)
    return db
  })

/** The file's tables, by name. */
export const tablesOf = (db: SqliteConnection) =>
  db.all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map((row) => String(row.name))
