import { Effect, Layer, Option, Schema } from "effect"
import {
  inOrganization,
  OrganizationId,
  PermissionId,
  ScimTokenId,
  ScimTokenRecord,
  ScimTokenStore,
  TokenHash,
  toScimToken
} from "../../core/index.ts"
import { appendEntry } from "./audit-log.ts"
import type { Row } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { instantOf, jsonColumn, millis, optionalRow, rowChecked, text } from "./values.ts"

const { encode: encodeIds, decode: decodeIds } = jsonColumn(Schema.Array(PermissionId))

const toRecord = (row: Row) =>
  new ScimTokenRecord(
    {
      id: ScimTokenId.make(text(row.id)),
      name: text(row.name),
      permissionIds: decodeIds(row.permission_ids),
      createdAt: instantOf(row.created_at),
      organizationId: OrganizationId.make(text(row.organization_id)),
      tokenHash: TokenHash.make(text(row.token_hash))
    },
    rowChecked
  )

export const makeScimTokenStore = Effect.gen(function* () {
  const { read, write } = yield* SqliteDatabase
  return ScimTokenStore.of({
    insert: (token, entry) =>
      write((db) => {
        db.run(
          "INSERT INTO scim_tokens (id, organization_id, name, permission_ids, token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)",
          token.id,
          token.organizationId,
          token.name,
          encodeIds(token.permissionIds),
          token.tokenHash,
          millis(token.createdAt)
        )
        appendEntry(db, entry)
      }),
    list: inOrganization((organizationId) =>
      read((db) =>
        db
          .all("SELECT * FROM scim_tokens WHERE organization_id = ? ORDER BY created_at, id", organizationId)
          .map((row) => toScimToken(toRecord(row)))
      )
    ),
    findByTokenHash: (tokenHash) =>
      read((db) =>
        optionalRow(db.get("SELECT * FROM scim_tokens WHERE token_hash = ?", tokenHash), toRecord)
      ),
    revoke: (id, entry) =>
      inOrganization((organizationId) =>
        write((db) => {
          const found = db.get(
            "SELECT * FROM scim_tokens WHERE id = ? AND organization_id = ?",
            id,
            organizationId
          )
          if (found === undefined) return Option.none()
          db.run("DELETE FROM scim_tokens WHERE id = ?", id)
          appendEntry(db, entry)
          return Option.some(toScimToken(toRecord(found)))
        })
      ),
    removeAll: inOrganization((organizationId) =>
      write((db) => {
        db.run("DELETE FROM scim_tokens WHERE organization_id = ?", organizationId)
      })
    )
  })
})

export const scimTokenStoreLayer = Layer.effect(ScimTokenStore, makeScimTokenStore)
