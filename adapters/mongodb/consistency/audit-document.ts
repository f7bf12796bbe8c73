import { Schema } from "effect"
import {
  AuditAction,
  AuditActor,
  AuditEntry,
  AuditTarget,
  defaultOrganizationId,
  isAnnounced,
  SignInMethod
} from "../../../core/index.ts"
import { collectionSchema, decodeDocument, encodeDocument } from "../stored-schema.ts"

/**
 * An audit entry as stored, in `audit_events` and pending in a changed document's `outbox`. The
 * changes are a list of `{ field, before, after }`: the server keeps no arrays within arrays.
 */
export const AuditEntryDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.String,
    at: Schema.DateTimeUtcFromDate,
    action: AuditAction,
    actor: AuditActor,
    target: AuditTarget,
    changes: Schema.Array(
      Schema.Struct({ field: Schema.String, before: Schema.Unknown, after: Schema.Unknown })
    ),
    requestId: Schema.optionalKey(Schema.String),
    method: Schema.optionalKey(SignInMethod),
    requestKey: Schema.optionalKey(Schema.String),
    organizationId: Schema.optionalKey(Schema.String),
    /** An announced change's entry not yet turned into deliveries (`EventSource`). */
    unsent: Schema.optionalKey(Schema.Literal(true))
  }),
  AuditEntry,
  {
    decode: ({ _id, changes, unsent: _unsent, ...fields }) => ({
      id: _id,
      changes: Object.fromEntries(
        changes.map(({ field, before, after }) => [field, [before, after] as const])
      ),
      ...fields
    }),
    encode: ({ id, changes, organizationId, ...fields }) => ({
      _id: id,
      changes: Object.entries(changes).map(([field, [before, after]]) => ({ field, before, after })),
      ...fields,
      // An entry made outside any organisation's request is the default organisation's.
      organizationId: organizationId ?? defaultOrganizationId,
      ...(isAnnounced(fields.action) ? { unsent: true as const } : {})
    })
  }
)
export type AuditEntryDocument = typeof AuditEntryDocument.Encoded

export const toAuditEntry = decodeDocument(AuditEntryDocument)
export const toAuditDocument = encodeDocument(AuditEntryDocument)

/** Where a change's entry waits, in the changed document, until the relay moves it. */
export const Outbox = Schema.optionalKey(Schema.Array(Schema.Unknown))

/** A removed member or role stays, marked, only until its entry is moved (`relay.ts`). */
export const Removed = Schema.optionalKey(Schema.Boolean)

/** Documents that are not removed: every read and change looks at these only. */
export const notRemoved = { removed: { $exists: false } } as const

/** The update part that leaves `entry` pending with the change. */
export const pushEntry = (entry: AuditEntry | undefined) =>
  entry === undefined ? {} : { $push: { outbox: toAuditDocument(entry) } }

/** A new document carrying `entry` pending. */
export const withEntry = <D extends object>(document: D, entry: AuditEntry | undefined) =>
  entry === undefined ? document : { ...document, outbox: [toAuditDocument(entry)] }
