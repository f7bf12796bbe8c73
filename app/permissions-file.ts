import { readFile } from "node:fs/promises"
import { Effect, Schema } from "effect"
import { ProductPermissionDescription, ProductPermissionKey } from "../core/index.ts"
import { StartupError } from "./startup-error.ts"

/** A product permission as the operator writes it in `ROSTER_PERMISSIONS_FILE`, or for `permissions sync`. */
const PermissionEntry = Schema.Struct({
  key: ProductPermissionKey,
  description: Schema.optionalKey(ProductPermissionDescription)
})
export type PermissionEntry = typeof PermissionEntry.Type

const PermissionsFile = Schema.fromJsonString(
  Schema.Array(PermissionEntry).check(
    Schema.makeFilter(
      (entries) => new Set(entries.map((entry) => entry.key)).size === entries.length || "keys must be unique"
    )
  )
)

const decodeEntries = Schema.decodeUnknownEffect(PermissionsFile, { errors: "all" })

/** Reads and checks a file of product permissions: keys by the catalog's rules, each once. */
export const loadPermissionsFile = (path: string) =>
  Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (cause) =>
      new StartupError({ message: `Cannot read the permissions file ${path}: ${String(cause)}` })
  }).pipe(
    Effect.flatMap(decodeEntries),
    Effect.mapError((error) =>
      error._tag === "StartupError"
        ? error
        : new StartupError({ message: `The permissions file ${path} is not valid:\n${error.message}` })
    )
  )
