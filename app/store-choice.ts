import { chmodSync, existsSync, mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { Effect, Layer } from "effect"
import { MemoryStores } from "../adapters/memory/index.ts"
import { loadedWhenBuilt } from "../adapters/runtime/loaded-when-built.ts"
import { openBunSqlite, openNodeSqlite, sqliteStores } from "../adapters/sqlite/index.ts"
import { jsonLogger } from "./log-lines.ts"
import type { Settings } from "./settings.ts"

/**
 * The data folder, made owner-only (0700) whatever the umask: it holds the database. A folder that
 * exists is the operator's and keeps its mode; the files in it are private all the same.
 */
const makeDataFolder = (folder: string) => {
  if (existsSync(folder)) return
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  chmodSync(folder, 0o700)
}

/** The runtime's own SQLite driver: Bun's under Bun, `node:sqlite` under Deno and Node. */
const openSqlite = "Bun" in globalThis ? openBunSqlite : openNodeSqlite

/** The store the settings choose: in memory, SQLite in the data folder, or MongoDB. */
export const chosenStores = ({ store }: Settings) => {
  switch (store.kind) {
    case "memory":
      return MemoryStores
    case "sqlite":
      return Layer.unwrap(
        Effect.sync(() => {
          makeDataFolder(dirname(store.path))
          return sqliteStores({ path: store.path, open: openSqlite })
        })
      )
    case "mongodb":
      // The driver is loaded only when it is used: in process memory it would hold ~14 MB for nothing.
      return loadedWhenBuilt(
        () => import("../adapters/mongodb/index.ts"),
        ({ mongoStores }) => mongoStores(store.mongo).pipe(Layer.provide(jsonLogger)),
        { name: "mongodb", feature: "The MongoDB store (MONGODB_URI)" }
      )
  }
}
