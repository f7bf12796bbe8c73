import { DateTime, Effect } from "effect"
import type { Db } from "mongodb"
import {
  type AuditEntry,
  type OrganizationId,
  type PermissionId,
  type RoleId,
  RolePermissionDetail,
  RolePermissionDetailId,
  type StoreUnavailable
} from "../../core/index.ts"
import { pushEntry, withEntry } from "./audit-document.ts"
import { nextInSequence } from "./counters.ts"
import { attemptWrite, query, queryWrite } from "./driver.ts"
import { recordFence } from "./record-fences.ts"
import { noteLeft } from "./relay-hints.ts"
import { type RolePermissionDocument, toDetail, toDocument } from "./role-permission-document.ts"

/** Grants a permission to a role: to its record, made first if the role has none. */
export const permissionGrants = (db: Db) => {
  const details = db.collection<typeof RolePermissionDocument.Encoded>("role_permissions")
  const fenced = recordFence(db)

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
      const updated = yield* fenced(organizationId, roleId)(
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
        ),
        (written) => written?.permissionIds
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
      const created = yield* fenced(organizationId, roleId)(
        attemptWrite(() => details.insertOne(withEntry({ ...toDocument(detail), organizationId }, entry))),
        () => detail.permissionIds
      ).pipe(
        Effect.tap(() => noteLeft(db, "role_permissions", id, entry)),
        Effect.as(true),
        // Another instance created the role's record first: add to that one instead.
        Effect.catchTag("DuplicateKey", () => Effect.succeed(false))
      )
      return created ? detail : yield* grantIn(organizationId, roleId, permissionId, at, audit)
    })

  return grantIn
}
