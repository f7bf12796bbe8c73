import { Context } from "effect"
import { HttpApi, type HttpApiGroup } from "effect/http-api"
import { behindAuthentication, RequiresPermission } from "./middleware.ts"

interface Document {
  readonly paths: Record<string, Record<string, { operationId?: string; "x-roster-permission"?: unknown }>>
}

/**
 * The catalog permission each operation behind Authentication needs, `null` where its credentials
 * need none (one's own account, the master key's operations), read from the endpoints' own
 * `RequiresPermission`: an endpoint declaring its permission is documented by that alone.
 */
const permissionsOf = <Groups extends HttpApiGroup.Constraint>(api: HttpApi.HttpApi<string, Groups>) => {
  const permissions = new Map<string, string | null>()
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint, middleware, mergedAnnotations }) => {
      if (!behindAuthentication(middleware)) return
      permissions.set(
        `${group.identifier}.${endpoint.identifier}`,
        Context.get(mergedAnnotations, RequiresPermission) ?? null
      )
    }
  })
  return permissions
}

/**
 * Names on every operation that takes credentials the permission it needs (`x-roster-permission`):
 * a catalog key, or `null`; a public operation (login, health, the webhook) has none.
 */
export const declarePermissions = <Groups extends HttpApiGroup.Constraint, D extends object>(
  api: HttpApi.HttpApi<string, Groups>,
  document: D
): D => {
  const permissions = permissionsOf(api)
  for (const path of Object.values((document as unknown as Document).paths))
    for (const operation of Object.values(path)) {
      const permission = permissions.get(operation.operationId ?? "")
      if (permission !== undefined) operation["x-roster-permission"] = permission
    }
  return document
}
