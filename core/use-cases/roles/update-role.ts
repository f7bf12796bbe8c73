import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { RoleId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import type { RoleChanges } from "../../model/role.ts"
import { requirePermission } from "../../policy/access.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { requireWithinOwn } from "../permissions/within-own.ts"

/**
 * Renames, re-keys, deactivates or reactivates a role (merge semantics). A role holding permissions
 * the caller lacks is not theirs to change: deactivating it would lock out those more privileged.
 * Deactivating a role stops its members acting at once (every request checks the role).
 */
export const updateRole = Effect.fnUntraced(function* (actor: Principal, id: RoleId, changes: RoleChanges) {
  yield* requirePermission(actor, "team.roles.write")
  const roles = yield* RoleStore
  if (Option.isNone(yield* roles.findById(id))) return yield* new NotFound({ entity: "role", id: String(id) })
  yield* requireWithinOwn(actor, id)
  const updated = yield* roles.update(id, changes)
  // Removed between the read and the write: the same answer as if it had never been there.
  if (Option.isNone(updated)) return yield* new NotFound({ entity: "role", id: String(id) })
  return updated.value
})
