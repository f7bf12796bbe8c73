import { Effect } from "effect"
import type { PermissionId } from "../../model/ids.ts"
import { ApiKeyStore } from "../../ports/api-key-store.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { ScimTokenStore } from "../../ports/scim-token-store.ts"
import { inEveryOrganization } from "../organizations/in-every-organization.ts"

/**
 * How many explicit grants hold a permission, in every organisation: roles' records, API keys' and
 * SCIM tokens' lists. The marker of every permission (the Owner role's) is no explicit grant.
 */
export const permissionHolders = (id: PermissionId) =>
  Effect.gen(function* () {
    const holders = { roles: 0, apiKeys: yield* (yield* ApiKeyStore).countHolding(id), scimTokens: 0 }
    yield* inEveryOrganization(() =>
      Effect.gen(function* () {
        holders.roles += (yield* (yield* RolePermissionStore).rolesHolding([id])).length
        holders.scimTokens += (yield* (yield* ScimTokenStore).list).filter((token) =>
          token.permissionIds.includes(id)
        ).length
      })
    )
    return holders
  })
