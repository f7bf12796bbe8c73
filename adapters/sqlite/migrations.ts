import { Effect } from "effect"
import type { SqliteConnection } from "./connection.ts"
import { schemaV1 } from "./schema-v1.ts"
import { schemaV2 } from "./schema-v2.ts"
import { schemaV3 } from "./schema-v3.ts"
import { schemaV4 } from "./schema-v4.ts"
import { schemaV5 } from "./schema-v5.ts"
import { schemaV6 } from "./schema-v6.ts"
import { schemaV7 } from "./schema-v7.ts"
import { schemaV8 } from "./schema-v8.ts"
import { schemaV9 } from "./schema-v9.ts"
import { schemaV10 } from "./schema-v10.ts"
import { schemaV11 } from "./schema-v11.ts"
import { schemaV12 } from "./schema-v12.ts"
import { schemaV13 } from "./schema-v13.ts"
import { schemaV14 } from "./schema-v14.ts"
import { schemaV15 } from "./schema-v15.ts"
import { schemaV16 } from "./schema-v16.ts"
import { schemaV17 } from "./schema-v17.ts"
import { schemaV18 } from "./schema-v18.ts"
import { schemaV19 } from "./schema-v19.ts"

/**
 * Each schema version's step from the one before it, in order: version n is `steps[n - 1]`. A step
 * is SQL, or a function of the connection where rows must be read to be written anew.
 */
const steps: ReadonlyArray<string | ((db: SqliteConnection) => void)> = [
  schemaV1,
  schemaV2,
  schemaV3,
  schemaV4,
  schemaV5,
  schemaV6,
  schemaV7,
  schemaV8,
  schemaV9,
  schemaV10,
  schemaV11,
  schemaV12,
  schemaV13,
  schemaV14,
  schemaV15,
  schemaV16,
  schemaV17,
  schemaV18,
  schemaV19
]

/** The schema version this code knows; a file at a newer one was written by newer code. */
export const latestSchemaVersion = steps.length

/** A database file whose schema is newer than this code: it refuses to start rather than guess. */
export class NewerSchema extends Error {
  constructor(readonly found: number) {
    super(
      `The SQLite database is at schema version ${found}, newer than the ${latestSchemaVersion} this Roster knows: ` +
        "run the newer Roster that wrote it, or restore a backup taken before it"
    )
  }
}

const versionOf = (db: SqliteConnection) => Number(db.get("PRAGMA user_version")?.user_version ?? 0)

/**
 * Brings the schema forward from the version the file is at (`PRAGMA user_version`), each step in
 * a transaction of its own with its version number, so a crash midway leaves a version, never half
 * of one, and two processes starting together take the steps once (the second finds them done).
 */
export const migrate = (db: SqliteConnection) =>
  Effect.sync(() => {
    const found = versionOf(db)
    if (found > latestSchemaVersion) throw new NewerSchema(found)
    for (let version = found + 1; version <= latestSchemaVersion; version++) {
      db.exec("BEGIN IMMEDIATE")
      try {
        // Another process may have taken this step while this one waited for the lock.
        if (versionOf(db) < version) {
          const step = steps[version - 1] ?? ""
          if (typeof step === "string") db.exec(step)
          else step(db)
          db.exec(`PRAGMA user_version = ${version}`)
        }
        db.exec("COMMIT")
      } catch (error) {
        db.exec("ROLLBACK")
        throw error
      }
    }
  })
