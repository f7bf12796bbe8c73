import { DateTime, Effect, Option } from "effect"
import type { AuditActor } from "../../model/audit.ts"
import { ApiKeyId, MemberId } from "../../model/ids.ts"
import { allPermissionIds } from "../../model/permission.ts"
import type { PermissionSet } from "../../model/permission-set.ts"
import { canAct } from "../../policy/access.ts"
import { ApiKeyStore } from "../../ports/api-key-store.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { RoleLookup } from "../../ports/role-lookup.ts"

const nothing: PermissionSet = new Set()

/**
 * What an endpoint's creator may read now, in the current organisation: a member's role's
 * permissions while the member, the account and the role are active (nothing once they left); an
 * API key's while it is neither revoked nor expired; everything for the operator (and for an
 * endpoint made before its creator was kept). An endpoint hears only what this allows.
 */
export const creatorPermissions = Effect.fnUntraced(function* (creator: AuditActor | undefined) {
  if (creator?.id === undefined || (creator.kind !== "member" && creator.kind !== "api_key")) {
    return allPermissionIds
  }
  if (creator.kind === "api_key") {
    const key = Option.getOrUndefined(yield* (yield* ApiKeyStore).find(ApiKeyId.make(creator.id)))
    if (key === undefined) return nothing
    const live = key.expiresAt === null || DateTime.isLessThan(yield* DateTime.now, key.expiresAt)
    return live ? new Set(key.permissions) : nothing
  }
  const member = Option.getOrUndefined(yield* (yield* MemberStore).findById(MemberId.make(creator.id)))
  if (member === undefined) return nothing
  const role = Option.getOrUndefined(yield* (yield* RoleLookup).find(member.roleId))
  return role !== undefined && canAct(member, role.role) ? new Set(role.permissionIds) : nothing
})
