export { PostgresDatabase, type PostgresOptions, postgresConfig, postgresDatabaseLayer } from "./database.ts"
export { postgresKitLayer } from "./kit.ts"
export { postgresKitStores, postgresKitStoresFromConfig } from "./postgres-stores.ts"
