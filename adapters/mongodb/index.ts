export { MongoDatabase, type MongoOptions, mongoDatabaseLayer } from "./database.ts"
export { ensureIndexes } from "./indexes.ts"
export { mongoStores } from "./mongo-stores.ts"
