import { Effect, Layer, Option, Schema } from "effect"
import type { Db } from "mongodb"
import { inOrganization, PermissionId, RoleLookup, sortedPermissions } from "../../core/index.ts"
import type { Fenced } from "./consistency/index.ts"
import { live } from "./consistency/index.ts"
import { MongoDatabase } from "./database.ts"
import { query } from "./driver.ts"
import { type RoleDocument, toRole } from "./role-store.ts"
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

/** A role and its permissions in one read of its document, which carries its permission record. */
export const makeRoleLookup = Effect.gen(function* () {
  const storedRole = storedRoleOf(yield* MongoDatabase)
  const answer = (stored: { document: StoredRole; permissionIds: ReadonlyArray<PermissionId> } | null) =>
    stored === null
      ? Effect.succeedNone
      : Effect.map(toRole(stored.document), (role) =>
          Option.some({ role, permissionIds: stored.permissionIds })
        )
  return RoleLookup.of({
    find: (id) =>
      inOrganization((organizationId) => Effect.flatMap(storedRole.find(id, organizationId), answer))
  })
})

export const roleLookupLayer = Layer.effect(RoleLookup, makeRoleLookup)
