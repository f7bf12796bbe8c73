// `npm run backup -- FILE`: a consistent copy of the SQLite store, taken while Roster serves.
import { existsSync } from "node:fs"
import { dirname } from "node:path"
import { Effect, Result } from "effect"
import { keepPrivate, openBunSqlite, openNodeSqlite } from "../adapters/sqlite/index.ts"
import { loadEnvFile } from "./env-file.ts"
import { loadStoreSettings } from "./store-settings.ts"

loadEnvFile()
const target = process.argv[2]
if (target === undefined || target === "") {
  console.error("Usage: npm run backup -- FILE (the copy to write; it must not exist yet)")
  process.exit(2)
}
if (existsSync(target)) {
  console.error(`${target} exists already: name a new file, so no backup is overwritten`)
  process.exit(2)
}
if (!existsSync(dirname(target))) {
  console.error(`The folder ${dirname(target)} does not exist: create it first, or name a file in another`)
  process.exit(2)
}
const settings = await Effect.runPromise(Effect.result(loadStoreSettings))
if (Result.isFailure(settings) || settings.success.kind !== "sqlite") {
  console.error(
    "The backup copies the SQLite store: ROSTER_STORE is not sqlite here (MongoDB has its own tools)"
  )
  process.exit(2)
}
const source = settings.success.path
if (!existsSync(source)) {
  console.error(`No SQLite store at ${source}: set ROSTER_DATA_DIR as Roster runs with`)
  process.exit(2)
}
const db = await ("Bun" in globalThis ? openBunSqlite : openNodeSqlite)(source)
try {
  db.exec("PRAGMA busy_timeout = 10000")
  // Made empty and private first: VACUUM INTO fills an empty file, whose mode it keeps.
  keepPrivate(target)
  // One read transaction: the copy is the database as it was at one instant, whatever is written meanwhile.
  db.exec(`VACUUM INTO '${target.replaceAll("'", "''")}'`)
} finally {
  db.close()
}
console.log(`Backed up ${source} to ${target}`)
