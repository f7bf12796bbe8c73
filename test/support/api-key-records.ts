import {
  ApiKeyId,
  ApiKeyLookup,
  ApiKeyRecord,
  defaultOrganizationId,
  type PermissionId,
  TokenHash
} from "../../core/index.ts"
import { at } from "./contract.ts"

/**
 * The `n`th API key record of a store's test, made at instant `n`: its id, lookup and permissions
 * as given, the rest made of `n` (a lookup shared by two records is one the store must refuse).
 */
export const apiKeyRecord = (
  n: number,
  given: {
    readonly id?: string
    readonly lookup?: number
    readonly permissions?: ReadonlyArray<PermissionId>
  } = {}
) =>
  new ApiKeyRecord({
    id: ApiKeyId.make(given.id ?? `key-${n}`),
    name: `Sync ${n}`,
    start: `rk_${n.toString(16).padStart(7, "0")}`,
    permissions: given.permissions ?? [],
    createdBy: { kind: "master" },
    createdAt: at(n),
    expiresAt: null,
    lastUsedAt: null,
    organizationId: defaultOrganizationId,
    lookup: ApiKeyLookup.make((given.lookup ?? n).toString(16).padStart(16, "0")),
    secretHash: TokenHash.make(n.toString(16).padStart(64, "0")),
    previous: null
  })
