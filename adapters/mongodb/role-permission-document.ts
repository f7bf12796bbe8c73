import { Schema } from "effect"
import { RolePermissionDetail } from "../../core/index.ts"
import { collectionSchema, decodeDocument, encodeDocument } from "./stored-schema.ts"

/**
 * A role's permission record as its role's document carries it (`record`), with the role's id (the
 * document's `_id`): its id is from its own sequence, as before records moved into their roles.
 */
export const RecordOfRole = collectionSchema(
  Schema.Struct({
    roleId: Schema.Int,
    record: Schema.Struct({
      id: Schema.Int,
      permissionIds: Schema.Array(Schema.Int),
      updatedAt: Schema.DateTimeUtcFromDate
    })
  }),
  RolePermissionDetail,
  {
    // `$addToSet` keeps the order permissions were granted in; the record lists them by id.
    decode: ({ roleId, record }) => ({
      id: record.id,
      roleId,
      permissionIds: [...record.permissionIds].sort((a, b) => a - b),
      updatedAt: record.updatedAt
    }),
    encode: ({ id, roleId, permissionIds, updatedAt }) => ({
      roleId,
      record: { id, permissionIds, updatedAt }
    })
  }
)
export type StoredRecord = (typeof RecordOfRole.Encoded)["record"]

const decodeRecord = decodeDocument(RecordOfRole)

/** The record the role's document `_id` carries, as the domain's detail. */
export const toDetail = (role: { readonly _id: number; readonly record?: StoredRecord }) =>
  decodeRecord({ roleId: role._id, record: role.record })

/** The record's stored form, to be set as the role document's `record`. */
export const toRecord = (detail: RolePermissionDetail) => encodeDocument(RecordOfRole)(detail).record
