import { Effect, Layer, Schema } from "effect"
import type { Db } from "mongodb"
import {
  inOrganization,
  PermissionId,
  RoleLookup,
  RolePermissionDetailId,
  sortedPermissions
} from "../../core/index.ts"
import { notRemoved, roleDocumentsPage, type StoredRole, toRole } from "./consistency/index.ts"
import { MongoDatabase } from "./database.ts"
import { query } from "./driver.ts"
import { decodeDocument } from "./stored-schema.ts"

const toPermissionIds = decodeDocument(Schema.Array(PermissionId))

/** What a role's document says the role holds (its record's permissions), sorted. */
const heldBy = (document: StoredRole) =>
  Effect.map(toPermissionIds(document.record?.permissionIds ?? []), sortedPermissions)

/** A role as stored, with its permissions (its document carries its record), in the organisation. */
export const storedRoleOf = (db: Db) => {
  const roles = db.collection<StoredRole>("roles")
  const document = (id: number, organizationId: string) =>
    query(() => roles.findOne({ _id: id, organizationId, ...notRemoved }))
  return {
    document,
    /** The role's document and what it holds: null when there is no such role. */
    find: (id: number, organizationId: string) =>
      Effect.flatMap(document(id, organizationId), (found) =>
        found === null
          ? Effect.succeed(null)
          : Effect.map(heldBy(found), (permissionIds) => ({ document: found, permissionIds }))
      )
  }
}

/** A role's document as the lookup answers it: the role, what it holds and its record's id. */
const lookedUp = (document: StoredRole) =>
  Effect.map(Effect.all({ role: toRole(document), permissionIds: heldBy(document) }), (found) =>
    document.record === undefined
      ? found
      : { ...found, recordId: RolePermissionDetailId.make(document.record.id) }
  )

/** A role and its permissions in one read of its document, which carries its permission record. */
export const makeRoleLookup = Effect.gen(function* () {
  const db = yield* MongoDatabase
  const roles = db.collection<StoredRole>("roles")
  const stored = storedRoleOf(db)
  return RoleLookup.of({
    find: (id) =>
      inOrganization((organizationId) => stored.document(id, organizationId)).pipe(
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
