import { Effect, Layer, Schema } from "effect"
import type { Db } from "mongodb"
import {
  inOrganization,
  PermissionId,
  RoleLookup,
  RolePermissionDetailId,
  sortedPermissions
} from "../../core/index.ts"
import type { Fenced } from "./consistency/index.ts"
import { live } from "./consistency/index.ts"
import { MongoDatabase } from "./database.ts"
import { query } from "./driver.ts"
import { type RoleDocument, roleDocumentsPage, toRole } from "./role-store.ts"
import { decodeDocument } from "./stored-schema.ts"

export type StoredRole = typeof RoleDocument.Encoded & Fenced

const toPermissionIds = decodeDocument(Schema.Array(PermissionId))

/** The role and what it holds, both its document's: null when there is no such role. */
const withPermissions = (document: StoredRole | null) =>
  document === null
    ? Effect.succeed(null)
    : Effect.map(toPermissionIds(document.record?.permissionIds ?? []), (permissionIds) => ({
        document,
        permissionIds: sortedPermissions(permissionIds)
      }))

/** A role as stored, with its permissions (its document carries its record), in the organisation. */
export const storedRoleOf = (db: Db) => {
  const roles = db.collection<StoredRole>("roles")
  return {
    find: (id: number, organizationId: string) =>
      Effect.flatMap(
        query(() => roles.findOne({ _id: id, organizationId, ...live })),
        withPermissions
      )
  }
}

/** A role's document as the lookup answers it: the role, what it holds and its record's id. */
const lookedUp = (document: StoredRole) =>
  Effect.flatMap(withPermissions(document), (stored) =>
    Effect.map(toRole(document), (role) => ({
      role,
      permissionIds: stored?.permissionIds ?? [],
      ...(document.record === undefined ? {} : { recordId: RolePermissionDetailId.make(document.record.id) })
    }))
  )

/** A role and its permissions in one read of its document, which carries its permission record. */
export const makeRoleLookup = Effect.gen(function* () {
  const db = yield* MongoDatabase
  const roles = db.collection<StoredRole>("roles")
  return RoleLookup.of({
    find: (id) =>
      inOrganization((organizationId) =>
        query(() => roles.findOne({ _id: id, organizationId, ...live }))
      ).pipe(
        Effect.flatMap((document) =>
          document === null ? Effect.succeedNone : Effect.asSome(lookedUp(document))
        )
      ),
    page: (after, limit) =>
      roleDocumentsPage(roles, after, limit).pipe(
        Effect.flatMap((documents) => Effect.forEach(documents, lookedUp))
      )
  })
})

export const roleLookupLayer = Layer.effect(RoleLookup, makeRoleLookup)
