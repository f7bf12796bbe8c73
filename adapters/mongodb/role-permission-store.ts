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
    revoke: (id, permissionId, at, entry) =>
      inOrganization((organizationId) =>
        Effect.gen(function* () {
          const current = yield* query(() => details.findOne({ _id: id, organizationId }))
          // Not holding the permission (or no such record) changes nothing: answer what is stored.
          if (current === null || !current.permissionIds.includes(permissionId)) return current
          const updated = yield* fencedRecord(organizationId, current.roleId)(
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
            ),
            (written) => written?.permissionIds
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
