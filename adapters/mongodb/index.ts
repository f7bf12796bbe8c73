export { MongoDatabase, type MongoOptions, mongoConfig, mongoDatabaseLayer } from "./database.ts"
export { ensureIndexes } from "./indexes.ts"
export { mongoStores } from "./mongo-stores.ts"
