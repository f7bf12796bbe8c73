import { Effect, Layer } from "effect"
import { StoreHealth } from "../../core/index.ts"
import { MongoDatabase } from "./database.ts"
import { query } from "./driver.ts"

export const storeHealthLayer = Layer.effect(StoreHealth)(
  MongoDatabase.useSync((db) => ({ ping: query(() => db.command({ ping: 1 })).pipe(Effect.asVoid) }))
)
