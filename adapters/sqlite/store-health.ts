import { Effect, Layer } from "effect"
import { StoreHealth } from "../../core/index.ts"
import { SqliteDatabase } from "./database.ts"

/** Ready while the file answers a read. */
export const storeHealthLayer = Layer.effect(
  StoreHealth,
  Effect.gen(function* () {
    const { read } = yield* SqliteDatabase
    return StoreHealth.of({ ping: read((db) => void db.get("SELECT 1")) })
  })
)
