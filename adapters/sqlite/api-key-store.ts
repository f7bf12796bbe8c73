import { Effect, Layer, Option, Schema } from "effect"
import {
  ApiKeyId,
  ApiKeyLookup,
  ApiKeyRecord,
  ApiKeyStore,
  AuditActor,
  type AuditEntry,
  inOrganization,
  OrganizationId,
  PermissionId,
  TokenHash,
  toApiKey
} from "../../core/index.ts"
import { appendEntry } from "./audit-log.ts"
import type { Row, SqliteConnection } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { instantOf, jsonColumn, millis, optional, optionalRow, rowChecked, text } from "./values.ts"

const permissionIds = jsonColumn(Schema.Array(PermissionId))
const actor = jsonColumn(AuditActor)

const toRecord = (row: Row) =>
  new ApiKeyRecord(
    {
      id: ApiKeyId.make(text(row.id)),
      name: text(row.name),
      start: text(row.start),
      permissions: permissionIds.decode(row.permission_ids),
      createdBy: actor.decode(row.created_by),
      createdAt: instantOf(row.created_at),
      expiresAt: optional(row.expires_at, instantOf) ?? null,
      lastUsedAt: optional(row.last_used_at, instantOf) ?? null,
      organizationId: OrganizationId.make(text(row.organization_id)),
      lookup: ApiKeyLookup.make(text(row.lookup)),
      secretHash: TokenHash.make(text(row.secret_hash)),
      previous:
        row.previous_secret_hash === null || row.previous_secret_hash === undefined
          ? null
          : {
              secretHash: TokenHash.make(text(row.previous_secret_hash)),
              until: instantOf(row.previous_until)
            }
    },
    rowChecked
  )

export const makeApiKeyStore = Effect.gen(function* () {
  const { read, readRemembered, write } = yield* SqliteDatabase
  const findIn = (db: SqliteConnection, organizationId: string, id: string) =>
    optionalRow(
      db.get("SELECT * FROM api_keys WHERE id = ? AND organization_id = ?", id, organizationId),
      toRecord
    )
  /** Runs `change` on the key if the organisation has it, with its entry; answers the key as it is then. */
  const changed = (id: ApiKeyId, entry: AuditEntry, change: (db: SqliteConnection) => void) =>
    inOrganization((organizationId) =>
      write((db) => {
        if (Option.isNone(findIn(db, organizationId, id))) return Option.none()
        change(db)
        appendEntry(db, entry)
        return Option.map(findIn(db, organizationId, id), toApiKey)
      })
    )
  return ApiKeyStore.of({
    insert: (key, entry) =>
      write((db) => {
        db.run(
          `INSERT INTO api_keys (id, organization_id, name, lookup, start, permission_ids, created_by, created_at,
            expires_at, last_used_at, secret_hash, previous_secret_hash, previous_until)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL, NULL)`,
          key.id,
          key.organizationId,
          key.name,
          key.lookup,
          key.start,
          permissionIds.encode(key.permissions),
          actor.encode(key.createdBy),
          millis(key.createdAt),
          key.expiresAt === null ? null : millis(key.expiresAt),
          key.secretHash
        )
        appendEntry(db, entry)
      }),
    page: (after, limit) =>
      inOrganization((organizationId) =>
        read((db) =>
          db
            .all(
              `SELECT * FROM api_keys WHERE organization_id = ? AND (created_at, id) > (?, ?)
               ORDER BY created_at, id LIMIT ?`,
              organizationId,
              // Before every key: the first page.
              after === undefined ? -1 : millis(after.createdAt),
              after?.id ?? "",
              limit
            )
            .map((row) => toApiKey(toRecord(row)))
        )
      ),
    find: (id) => inOrganization((organizationId) => read((db) => findIn(db, organizationId, id))),
    findByLookup: (lookup) =>
      readRemembered(`api key ${lookup}`, (db) =>
        optionalRow(db.get("SELECT * FROM api_keys WHERE lookup = ?", lookup), toRecord)
      ),
    update: (id, changes, entry) =>
      changed(id, entry, (db) => {
        if (changes.name !== undefined) db.run("UPDATE api_keys SET name = ? WHERE id = ?", changes.name, id)
        if (changes.permissions !== undefined) {
          db.run(
            "UPDATE api_keys SET permission_ids = ? WHERE id = ?",
            permissionIds.encode(changes.permissions),
            id
          )
        }
      }),
    rotate: (id, rotation, entry) =>
      changed(id, entry, (db) => {
        db.run(
          "UPDATE api_keys SET secret_hash = ?, previous_secret_hash = ?, previous_until = ? WHERE id = ?",
          rotation.secretHash,
          rotation.previous?.secretHash ?? null,
          rotation.previous === null ? null : millis(rotation.previous.until),
          id
        )
      }),
    revoke: (id, entry) =>
      inOrganization((organizationId) =>
        write((db) => {
          const found = findIn(db, organizationId, id)
          if (Option.isNone(found)) return Option.none()
          db.run("DELETE FROM api_keys WHERE id = ?", id)
          appendEntry(db, entry)
          return Option.some(toApiKey(found.value))
        })
      ),
    removeAll: inOrganization((organizationId) =>
      write((db) => {
        db.run("DELETE FROM api_keys WHERE organization_id = ?", organizationId)
      })
    ),
    noteUse: (id, at) =>
      write((db) => {
        db.run(
          "UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)",
          millis(at),
          id,
          millis(at)
        )
      })
  })
})

export const apiKeyStoreLayer = Layer.effect(ApiKeyStore, makeApiKeyStore)
