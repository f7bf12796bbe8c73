import { join } from "node:path"
import { Config, Effect, Option, Redacted } from "effect"
import type { MongoOptions } from "../adapters/mongodb/index.ts"
import { readEnvironment, refuse } from "./startup-error.ts"

/** Which store the service keeps its data in. */
export type StoreSettings =
  | { readonly kind: "memory" }
  | { readonly kind: "sqlite"; readonly path: string }
  | { readonly kind: "mongodb"; readonly mongo: MongoOptions }

/** A variable set to the empty string counts as unset (`MONGODB_URI=`, `ROSTER_STORE=`). */
const nonEmpty = (config: Config.Config<string>) =>
  config.pipe(Config.option, Config.map(Option.filter((value) => value.trim() !== "")))

const environment = Config.all({
  store: nonEmpty(Config.String("ROSTER_STORE")),
  dataDir: nonEmpty(Config.String("ROSTER_DATA_DIR")),
  mongoUri: nonEmpty(Config.String("MONGODB_URI")),
  mongoDb: nonEmpty(Config.String("MONGODB_DB"))
})

/** The file of the SQLite store in its data directory. */
export const sqliteFileName = "roster.db"

/**
 * `ROSTER_STORE` names the store (`sqlite`, `mongodb` or `memory`); without it, MongoDB when
 * `MONGODB_URI` is set, else SQLite, one file in `ROSTER_DATA_DIR` (default `./data`).
 */
export const loadStoreSettings = Effect.gen(function* () {
  const env = yield* readEnvironment(environment)
  const named = Option.getOrUndefined(env.store)
  if (named !== undefined && !["sqlite", "mongodb", "memory"].includes(named)) {
    return yield* refuse(`ROSTER_STORE must be sqlite, mongodb or memory, not ${JSON.stringify(named)}`)
  }
  const kind = named ?? (Option.isSome(env.mongoUri) ? "mongodb" : "sqlite")
  if (kind === "memory") return { kind } satisfies StoreSettings
  if (kind === "mongodb") {
    if (Option.isNone(env.mongoUri)) return yield* refuse("ROSTER_STORE=mongodb needs MONGODB_URI")
    return {
      kind,
      mongo: {
        uri: Redacted.make(env.mongoUri.value),
        database: Option.getOrElse(env.mongoDb, () => "roster")
      }
    } satisfies StoreSettings
  }
  return {
    kind: "sqlite",
    path: join(
      Option.getOrElse(env.dataDir, () => "./data"),
      sqliteFileName
    )
  } satisfies StoreSettings
})
