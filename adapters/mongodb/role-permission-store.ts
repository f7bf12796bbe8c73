import { Effect, Layer, Option } from "effect"
import { inOrganization, RoleId, RolePermissionStore } from "../../core/index.ts"
import type { StoredRole } from "./consistency/index.ts"
import { notRemoved, sessionFences } from "./consistency/index.ts"
import { MongoDatabase } from "./database.ts"
import { query, queryWrite } from "./driver.ts"
import { recordWrites } from "./record-writes.ts"
import { toDetail } from "./role-permission-document.ts"

/** The record a role's document carries (see `RecordOfRole`); none when it carries none. */
const recordOf = (role: StoredRole | null) =>
  role?.record === undefined ? Effect.succeedNone : Effect.map(toDetail(role), Option.some)

export const makeRolePermissionStore = Effect.gen(function* () {
  const db = yield* MongoDatabase
  const roles = db.collection<StoredRole>("roles")
  const fences = sessionFences(db)
  const writes = recordWrites(db)

  return RolePermissionStore.of({
    grant: (roleId, permissionId, at, audit) =>
      inOrganization((organizationId) => writes.grant(organizationId, roleId, permissionId, at, audit)),
    // Written without a read first: the record's role, which the fence needs, is the caller's.
    revoke: (record, permissionId, at, entry) =>
      inOrganization((organizationId) => writes.revoke(organizationId, record, permissionId, at, entry)),
    findById: (id) =>
      inOrganization((organizationId) =>
        query(() => roles.findOne({ organizationId, "record.id": id, ...notRemoved }))
      ).pipe(Effect.flatMap(recordOf)),
    findByRole: (roleId) =>
      inOrganization((organizationId) =>
        query(() => roles.findOne({ _id: roleId, organizationId, ...notRemoved }))
      ).pipe(Effect.flatMap(recordOf)),
    rolesHolding: (permissionIds) =>
      inOrganization((organizationId) =>
        query(() =>
          roles
            .find(
              { organizationId, "record.permissionIds": { $all: [...permissionIds] }, ...notRemoved },
              { projection: { _id: 1 } }
            )
            .sort({ _id: 1 })
            .toArray()
        )
      ).pipe(Effect.map((found) => found.map((role) => RoleId.make(role._id)))),
    removeAll: inOrganization((organizationId) =>
      fences.ofOrganization(organizationId)(
        queryWrite(() => roles.updateMany({ organizationId }, { $unset: { record: "" } }))
      )
    ).pipe(Effect.asVoid),
    removeOfRole: (roleId) =>
      inOrganization((organizationId) =>
        fences.ofRole(
          organizationId,
          roleId
        )(queryWrite(() => roles.updateOne({ _id: roleId, organizationId }, { $unset: { record: "" } })))
      ).pipe(Effect.asVoid)
  })
})

export const rolePermissionStoreLayer = Layer.effect(RolePermissionStore, makeRolePermissionStore)
