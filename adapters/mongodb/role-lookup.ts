import { Effect, Layer, Option } from "effect"
import { RoleLookup } from "../../core/index.ts"
import { inOrganization } from "../organization-scope.ts"
import { live } from "./audit-document.ts"
import { MongoDatabase } from "./database.ts"
import { query } from "./driver.ts"
import { type RolePermissionDocument, toDetail } from "./role-permission-store.ts"
import { type RoleDocument, toRole } from "./role-store.ts"

/**
 * A role and then its permission record: two reads, FerretDB 1.24 (the test server) having no
 * `$lookup` to join them.
 */
export const makeRoleLookup = Effect.gen(function* () {
  const db = yield* MongoDatabase
  const roles = db.collection<typeof RoleDocument.Encoded>("roles")
  const details = db.collection<typeof RolePermissionDocument.Encoded>("role_permissions")
  return RoleLookup.of({
    find: (id) =>
      inOrganization((organizationId) =>
        Effect.gen(function* () {
          const role = yield* query(() => roles.findOne({ _id: id, organizationId, ...live }))
          if (role === null) return Option.none()
          const detail = yield* query(() => details.findOne({ roleId: id, organizationId }))
          return Option.some({
            role: yield* toRole(role),
            permissionIds: detail === null ? [] : (yield* toDetail(detail)).permissionIds
          })
        })
      )
  })
})

export const roleLookupLayer = Layer.effect(RoleLookup, makeRoleLookup)
