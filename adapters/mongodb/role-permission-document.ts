import { Schema } from "effect"
import { RolePermissionDetail } from "../../core/index.ts"
import { collectionSchema, decodeDocument, encodeDocument } from "../stored-schema.ts"
import { Outbox } from "./audit-document.ts"

/** A role's permission record as stored: its sequence number as `_id`, one per role (unique `roleId`). */
export const RolePermissionDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.Int,
    /** Set on insert from the organisation acting; the record itself does not carry it. */
    organizationId: Schema.optionalKey(Schema.String),
    roleId: Schema.Int,
    permissionIds: Schema.Array(Schema.Int),
    updatedAt: Schema.DateTimeUtcFromDate,
    outbox: Outbox
  }),
  RolePermissionDetail,
  {
    // `$addToSet` keeps the order permissions were granted in; the record lists them by id.
    decode: ({ _id, organizationId: _organizationId, permissionIds, outbox: _outbox, ...fields }) => ({
      id: _id,
      permissionIds: [...permissionIds].sort((a, b) => a - b),
      ...fields
    }),
    encode: ({ id, ...fields }) => ({ _id: id, ...fields })
  }
)

export const toDetail = decodeDocument(RolePermissionDocument)
export const toDocument = encodeDocument(RolePermissionDocument)
