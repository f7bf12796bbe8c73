import { Schema } from "effect"
import type { Collection, Filter } from "mongodb"
import { inOrganization, Role } from "../../../core/index.ts"
import { query } from "../driver.ts"
import { RecordOfRole } from "../role-permission-document.ts"
import { collectionSchema, decodeDocument } from "../stored-schema.ts"
import { notRemoved, Outbox, Removed } from "./audit-document.ts"
import type { Fenced } from "./fences.ts"

/**
 * A role as stored: its sequence number as `_id`, its key under a unique index, how many members
 * hold it (see `roleHolders`), and its permission record: a role and what it holds are one document,
 * read in one read and changed in one write.
 */
export const RoleDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.Int,
    /** Set on insert from the organisation acting; the role itself does not carry it. */
    organizationId: Schema.optionalKey(Schema.String),
    name: Schema.String,
    roleKey: Schema.String,
    activeStatus: Schema.Boolean,
    createdAt: Schema.DateTimeUtcFromDate,
    deactivatedAt: Schema.optionalKey(Schema.DateTimeUtcFromDate),
    holders: Schema.optionalKey(Schema.Int),
    holdersChangedAt: Schema.optionalKey(Schema.Date),
    /** Its permission record (see `RecordOfRole`), when anything was ever granted to it. */
    record: Schema.optionalKey(RecordOfRole.from.fields.record),
    outbox: Outbox,
    removed: Removed
  }),
  Role,
  {
    decode: ({
      _id,
      organizationId: _organizationId,
      holders: _holders,
      holdersChangedAt: _changedAt,
      record: _record,
      outbox: _outbox,
      removed: _removed,
      ...fields
    }) => ({
      id: _id,
      ...fields
    }),
    encode: ({ id, ...fields }) => ({ _id: id, ...fields, holders: 0 })
  }
)

export const toRole = decodeDocument(RoleDocument)

/** At most `limit` of the organisation's role documents by id, after the role `after` when given. */
export const roleDocumentsPage = <Document extends typeof RoleDocument.Encoded>(
  roles: Collection<Document>,
  after: number | undefined,
  limit: number
) =>
  inOrganization((organizationId) =>
    query(() =>
      roles
        .find(
          (after === undefined
            ? { organizationId, ...notRemoved }
            : { organizationId, _id: { $gt: after }, ...notRemoved }) as Filter<Document>
        )
        .sort({ organizationId: 1, _id: 1 })
        .limit(limit)
        .toArray()
    )
  )

/** A role's document as the protocol reads it: with the fence a change of it may hold up. */
export type StoredRole = typeof RoleDocument.Encoded & Fenced
