import { Effect } from "effect"
import type { ApiKeyPosition } from "../../model/api-key.ts"
import type { PermissionId } from "../../model/ids.ts"
import { ApiKeyStore } from "../../ports/api-key-store.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { ScimTokenStore } from "../../ports/scim-token-store.ts"
import { inEveryOrganization } from "../organizations/in-every-organization.ts"

const pageSize = 200

/** The API keys of the current organisation naming `id` in their list. */
const apiKeysHolding = (id: PermissionId) =>
  Effect.gen(function* () {
    const keys = yield* ApiKeyStore
    let count = 0
    let after: ApiKeyPosition | undefined
    for (;;) {
      const page = yield* keys.page(after, pageSize)
      count += page.filter((key) => key.permissions.includes(id)).length
      const last = page[page.length - 1]
      if (last === undefined || page.length < pageSize) return count
      after = { createdAt: last.createdAt, id: last.id }
    }
  })

/**
 * How many explicit grants hold a permission, in every organisation: roles' records, API keys' and
 * SCIM tokens' lists. The marker of every permission (the Owner role's) is no explicit grant.
 */
export const permissionHolders = (id: PermissionId) =>
  Effect.gen(function* () {
    const holders = { roles: 0, apiKeys: 0, scimTokens: 0 }
    yield* inEveryOrganization(() =>
      Effect.gen(function* () {
        holders.roles += (yield* (yield* RolePermissionStore).rolesHolding([id])).length
        holders.apiKeys += yield* apiKeysHolding(id)
        holders.scimTokens += (yield* (yield* ScimTokenStore).list).filter((token) =>
          token.permissionIds.includes(id)
        ).length
      })
    )
    return holders
  })
