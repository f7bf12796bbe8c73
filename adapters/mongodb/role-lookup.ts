import { Clock, Effect, Layer, Option, Schema } from "effect"
import type { Db } from "mongodb"
import { PermissionId, RoleLookup } from "../../core/index.ts"
import { inOrganization } from "../organization-scope.ts"
import { decodeDocument } from "../stored-schema.ts"
import { live } from "./audit-document.ts"
import { MongoDatabase } from "./database.ts"
import { query, queryWrite } from "./driver.ts"
import { type Fenced, isFenced } from "./fences.ts"
import { holding } from "./role-holders.ts"
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
  const withPermissions = (document: StoredRole | null, organizationId: string) =>
    document === null
      ? Effect.succeed(null)
      : Effect.map(permissionsOf(document, organizationId), (permissionIds) => ({ document, permissionIds }))
  return {
    find: (id: number, organizationId: string) =>
      Effect.flatMap(
        query(() => roles.findOne({ _id: id, organizationId, ...live })),
        (document) => withPermissions(document, organizationId)
      ),
    /** The role counted one more holder (see `roleHolders`), as that write left it. */
    claim: (id: number, organizationId: string, now: number) =>
      Effect.flatMap(
        queryWrite(() =>
          roles.findOneAndUpdate({ _id: id, organizationId, ...live }, holding(1, now), {
            returnDocument: "after"
          })
        ),
        (document) => withPermissions(document, organizationId)
      )
  }
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
  const answer = (stored: { document: StoredRole; permissionIds: ReadonlyArray<PermissionId> } | null) =>
    stored === null
      ? Effect.succeedNone
      : Effect.map(toRole(stored.document), (role) =>
          Option.some({ role, permissionIds: stored.permissionIds })
        )
  return RoleLookup.of({
    find: (id) =>
      inOrganization((organizationId) => Effect.flatMap(storedRole.find(id, organizationId), answer)),
    claim: (id) =>
      inOrganization((organizationId) =>
        Clock.currentTimeMillis.pipe(
          Effect.flatMap((now) => storedRole.claim(id, organizationId, now)),
          Effect.flatMap(answer)
        )
      )
  })
})

export const roleLookupLayer = Layer.effect(RoleLookup, makeRoleLookup)
