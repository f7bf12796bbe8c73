import { DateTime, Effect, Layer, Schema } from "effect"
import {
  type AuditEntry,
  type OrganizationId,
  type PermissionId,
  RoleId,
  RolePermissionDetail,
  RolePermissionDetailId,
  RolePermissionStore,
  type StoreUnavailable
} from "../../core/index.ts"
import { inOrganization } from "../organization-scope.ts"
import { collectionSchema, decodeDocument, encodeDocument, optionally } from "../stored-schema.ts"
import { Outbox, pushEntry, withEntry } from "./audit-document.ts"
import { nextInSequence } from "./counters.ts"
import { MongoDatabase } from "./database.ts"
import { attemptWrite, query, queryWrite } from "./driver.ts"
import { noteLeft } from "./relay-hints.ts"
import { sessionFences } from "./session-fences.ts"

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
const toDocument = encodeDocument(RolePermissionDocument)

export const makeRolePermissionStore = Effect.gen(function* () {
  const db = yield* MongoDatabase
  const details = db.collection<typeof RolePermissionDocument.Encoded>("role_permissions")
  const fences = sessionFences(db)

  // Each change is one atomic update of the role's document, so concurrent grants and removals
  // of different permissions all take effect.
  // Only a record that lacks the permission changes, so only a real change leaves an entry.
  const addTo = (
    organizationId: OrganizationId,
    roleId: RoleId,
    permissionId: PermissionId,
    at: DateTime.Utc,
    audit: ((detail: RolePermissionDetail) => AuditEntry) | undefined
  ) =>
    Effect.gen(function* () {
      const existing = yield* query(() => details.findOne({ roleId, organizationId }))
      if (existing === null) return null
      const before = yield* toDetail(existing)
      if (before.permissionIds.includes(permissionId)) return existing
      const after = new RolePermissionDetail({
        ...before,
        permissionIds: [...before.permissionIds, permissionId],
        updatedAt: at
      })
      const entry = audit?.(after)
      const updated = yield* fences.ofRole(
        organizationId,
        roleId
      )(
        queryWrite(() =>
          details.findOneAndUpdate(
            { roleId, organizationId, permissionIds: { $ne: permissionId } },
            {
              $addToSet: { permissionIds: permissionId },
              $set: { updatedAt: DateTime.toDateUtc(at) },
              ...pushEntry(entry)
            },
            { returnDocument: "after" }
          )
        )
      )
      if (updated !== null) yield* noteLeft(db, "role_permissions", updated._id, entry)
      // Granted by another request meanwhile: the record holds it, with that request's entry.
      return updated ?? (yield* query(() => details.findOne({ roleId, organizationId })))
    })

  const grantIn = (
    organizationId: OrganizationId,
    roleId: RoleId,
    permissionId: PermissionId,
    at: DateTime.Utc,
    audit?: (detail: RolePermissionDetail) => AuditEntry
  ): Effect.Effect<RolePermissionDetail, StoreUnavailable> =>
    Effect.gen(function* () {
      const updated = yield* addTo(organizationId, roleId, permissionId, at, audit)
      if (updated !== null) return yield* toDetail(updated)
      const id = yield* nextInSequence(db, "role_permissions")
      const detail = new RolePermissionDetail({
        id: RolePermissionDetailId.make(id),
        roleId,
        permissionIds: [permissionId],
        updatedAt: at
      })
      const entry = audit?.(detail)
      const created = yield* fences
        .ofRole(
          organizationId,
          roleId
        )(attemptWrite(() => details.insertOne(withEntry({ ...toDocument(detail), organizationId }, entry))))
        .pipe(
          Effect.tap(() => noteLeft(db, "role_permissions", id, entry)),
          Effect.as(true),
          // Another instance created the role's record first: add to that one instead.
          Effect.catchTag("DuplicateKey", () => Effect.succeed(false))
        )
      return created ? detail : yield* grantIn(organizationId, roleId, permissionId, at, audit)
    })

  return RolePermissionStore.of({
    grant: (roleId, permissionId, at, audit) =>
      inOrganization((organizationId) => grantIn(organizationId, roleId, permissionId, at, audit)),
    revoke: (id, permissionId, at, entry) =>
      inOrganization((organizationId) =>
        Effect.gen(function* () {
          const current = yield* query(() => details.findOne({ _id: id, organizationId }))
          // Not holding the permission (or no such record) changes nothing: answer what is stored.
          if (current === null || !current.permissionIds.includes(permissionId)) return current
          const updated = yield* fences.ofRole(
            organizationId,
            current.roleId
          )(
            queryWrite(() =>
              details.findOneAndUpdate(
                { _id: id, organizationId, permissionIds: permissionId },
                {
                  $pull: { permissionIds: permissionId },
                  $set: { updatedAt: DateTime.toDateUtc(at) },
                  ...pushEntry(entry)
                },
                { returnDocument: "after" }
              )
            )
          )
          if (updated !== null) yield* noteLeft(db, "role_permissions", id, entry)
          // Taken away by another request meanwhile: the record as it is now.
          return updated ?? (yield* query(() => details.findOne({ _id: id, organizationId })))
        })
      ).pipe(Effect.flatMap(optionally(toDetail))),
    findById: (id) =>
      inOrganization((organizationId) => query(() => details.findOne({ _id: id, organizationId }))).pipe(
        Effect.flatMap(optionally(toDetail))
      ),
    findByRole: (roleId) =>
      inOrganization((organizationId) => query(() => details.findOne({ roleId, organizationId }))).pipe(
        Effect.flatMap(optionally(toDetail))
      ),
    rolesHolding: (permissionIds) =>
      inOrganization((organizationId) =>
        query(() =>
          details
            .find(
              { organizationId, permissionIds: { $all: [...permissionIds] } },
              { projection: { roleId: 1 } }
            )
            .sort({ roleId: 1 })
            .toArray()
        )
      ).pipe(Effect.map((found) => found.map((detail) => RoleId.make(detail.roleId)))),
    removeAll: inOrganization((organizationId) =>
      fences.ofOrganization(organizationId)(queryWrite(() => details.deleteMany({ organizationId })))
    ).pipe(Effect.asVoid),
    removeOfRole: (roleId) =>
      inOrganization((organizationId) =>
        fences.ofRole(organizationId, roleId)(queryWrite(() => details.deleteOne({ roleId, organizationId })))
      ).pipe(Effect.asVoid)
  })
})

export const rolePermissionStoreLayer = Layer.effect(RolePermissionStore, makeRolePermissionStore)
