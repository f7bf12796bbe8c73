export { type OpenSqlite, openBunSqlite, openNodeSqlite, type SqliteConnection } from "./connection.ts"
export type { SqliteOptions } from "./database.ts"
export { latestSchemaVersion, NewerSchema } from "./migrations.ts"
export { sqliteStores } from "./sqlite-stores.ts"
