import { Effect, Layer, Option, Schema } from "effect"
import type { Db } from "mongodb"
import { PermissionId, RoleLookup } from "../../core/index.ts"
import { inOrganization } from "../organization-scope.ts"
import { decodeDocument } from "../stored-schema.ts"
import { live } from "./audit-document.ts"
import { MongoDatabase } from "./database.ts"
import { query } from "./driver.ts"
import { type Fenced, isFenced } from "./fences.ts"
import { type RolePermissionDocument, toDetail } from "./role-permission-document.ts"
import { type RoleDocument, toRole } from "./role-store.ts"

export type StoredRole = typeof RoleDocument.Encoded & Fenced

const toPermissionIds = decodeDocument(Schema.Array(PermissionId))

/**
 * A role as stored, with its permissions: from the copy it carries, or else from its record, read
 * then and copied onto it if it carried no fence and no fence has moved its version on since.
 * Null when there is no such role in the organisation.
 */
export const storedRoleOf = (db: Db) => {
  const roles = db.collection<StoredRole>("roles")
  const details = db.collection<typeof RolePermissionDocument.Encoded>("role_permissions")
  const keep = (document: StoredRole, permissionIds: ReadonlyArray<PermissionId>) =>
    query(() =>
      roles.updateOne(
        {
          _id: document._id,
          copyVersion: document.copyVersion ?? { $exists: false },
          permissionCopy: { $exists: false }
        },
        { $set: { permissionCopy: [...permissionIds] } }
      )
    ).pipe(Effect.ignore)
  const permissionsOf = (document: StoredRole, organizationId: string) =>
    Effect.gen(function* () {
      if (document.permissionCopy !== undefined) return yield* toPermissionIds(document.permissionCopy)
      const detail = yield* query(() => details.findOne({ roleId: document._id, organizationId }))
      const permissionIds = detail === null ? [] : (yield* toDetail(detail)).permissionIds
      if (!isFenced(document)) yield* keep(document, permissionIds)
      return permissionIds
    })
  return (id: number, organizationId: string) =>
    Effect.gen(function* () {
      const document = yield* query(() => roles.findOne({ _id: id, organizationId, ...live }))
      if (document === null) return null
      return { document, permissionIds: yield* permissionsOf(document, organizationId) }
    })
}

/**
 * A role and its permissions in one read: FerretDB, the server the tests run on, has no `$lookup`
 * to join the permission record to the role, so the role carries a copy of the record's ids. A role
 * without one has its record read too, and is then given one (see `storedRoleOf`). Every change
 * of a record runs behind a fence on its role, which takes the copy away (see `sessionFences`) and,
 * when no other change overlapped it, leaves the record's new ids as the copy (`record-fences.ts`).
 */
export const makeRoleLookup = Effect.gen(function* () {
  const storedRole = storedRoleOf(yield* MongoDatabase)
  return RoleLookup.of({
    find: (id) =>
      inOrganization((organizationId) =>
        Effect.gen(function* () {
          const stored = yield* storedRole(id, organizationId)
          if (stored === null) return Option.none()
          return Option.some({ role: yield* toRole(stored.document), permissionIds: stored.permissionIds })
        })
      )
  })
})

export const roleLookupLayer = Layer.effect(RoleLookup, makeRoleLookup)
