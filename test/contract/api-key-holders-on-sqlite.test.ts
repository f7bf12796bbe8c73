// A file written before API keys' permissions were a column of their table: opening it adds the
// column and fills it from each key's record, so counting a permission's holders finds the old keys.
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { openBunSqlite, sqliteStores } from "../../adapters/sqlite/index.ts"
import {
  ApiKeyId,
  ApiKeyLookup,
  ApiKeyRecord,
  ApiKeyStore,
  AuditEntry,
  AuditEntryId,
  defaultOrganizationId,
  PermissionId,
  TokenHash
} from "../../core/index.ts"
import { at } from "../support/contract.ts"
import { scratchFile } from "../support/stores.ts"

const keyHolding = (permissions: ReadonlyArray<number>) =>
  new ApiKeyRecord({
    id: ApiKeyId.make("key-old"),
    name: "Old",
    start: "rk_0000001",
    permissions: permissions.map((id) => PermissionId.make(id)),
    createdBy: { kind: "master" },
    createdAt: at(1),
    expiresAt: null,
    lastUsedAt: null,
    organizationId: defaultOrganizationId,
    lookup: ApiKeyLookup.make("0000000000000001"),
    secretHash: TokenHash.make("0".repeat(64)),
    previous: null
  })

const created = new AuditEntry({
  id: AuditEntryId.make("aud-key-old"),
  at: at(1),
  action: "api_key.created",
  actor: { kind: "master" },
  target: { type: "api_key", id: "key-old" },
  changes: {},
  organizationId: defaultOrganizationId
})

const keysOn = (path: string) =>
  Effect.map(Layer.build(sqliteStores({ path, open: openBunSqlite })), (built) =>
    Context.get(built, ApiKeyStore)
  )

describe("API keys' permissions on a SQLite file from before they were a column", () => {
  it.effect("are counted once the file is opened again", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const path = yield* scratchFile
        const before = yield* Effect.scoped(
          Effect.gen(function* () {
            const store = yield* keysOn(path)
            yield* store.insert(keyHolding([1, 1000]), created)
            return yield* store.countHolding(PermissionId.make(1000))
          })
        )
        assert.strictEqual(before, 1)
        const db = yield* Effect.promise(() => openBunSqlite(path))
        db.exec('ALTER TABLE "api_keys" DROP COLUMN "permissions"')
        db.close()
        const store = yield* keysOn(path)
        assert.strictEqual(yield* store.countHolding(PermissionId.make(1000)), 1)
        assert.strictEqual(yield* store.countHolding(PermissionId.make(2)), 0)
      })
    )
  )
})
