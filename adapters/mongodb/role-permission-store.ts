import { DateTime, Effect, Layer } from "effect"
import { RoleId, RolePermissionStore } from "../../core/index.ts"
import { inOrganization } from "../organization-scope.ts"
import { optionally } from "../stored-schema.ts"
import { pushEntry } from "./audit-document.ts"
import { MongoDatabase } from "./database.ts"
import { query, queryWrite } from "./driver.ts"
import { permissionGrants } from "./permission-grants.ts"
import { recordFence } from "./record-fences.ts"
import { noteLeft } from "./relay-hints.ts"
import { type RolePermissionDocument, toDetail } from "./role-permission-document.ts"
import { sessionFences } from "./session-fences.ts"

export const makeRolePermissionStore = Effect.gen(function* () {
  const db = yield* MongoDatabase
  const details = db.collection<typeof RolePermissionDocument.Encoded>("role_permissions")
  const fences = sessionFences(db)
  const fencedRecord = recordFence(db)

  const grantIn = permissionGrants(db)

  return RolePermissionStore.of({
    grant: (roleId, permissionId, at, audit) =>
      inOrganization((organizationId) => grantIn(organizationId, roleId, permissionId, at, audit)),
    // Written without a read first: the record's role, which the fence needs, is the caller's.
    revoke: ({ id, roleId }, permissionId, at, entry) =>
      inOrganization((organizationId) =>
        Effect.gen(function* () {
          const updated = yield* fencedRecord(organizationId, roleId)(
            queryWrite(() =>
              details.findOneAndUpdate(
                { _id: id, roleId, organizationId, permissionIds: permissionId },
                {
                  $pull: { permissionIds: permissionId },
                  $set: { updatedAt: DateTime.toDateUtc(at) },
                  ...pushEntry(entry)
                },
                { returnDocument: "after" }
              )
            ),
            (written) => written?.permissionIds
          )
          if (updated !== null) yield* noteLeft(db, "role_permissions", id, entry)
          // Not held (taken away meanwhile), or no such record: the record as it is now, if any.
          return updated ?? (yield* query(() => details.findOne({ _id: id, roleId, organizationId })))
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
