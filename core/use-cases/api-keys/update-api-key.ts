import { Effect, Option, Schema } from "effect"
import { ApiKeyName, PermissionRefs, toApiKey } from "../../model/api-key.ts"
import { NotFound } from "../../model/errors.ts"
import type { ApiKeyId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { ApiKeyStore } from "../../ports/api-key-store.ts"
import { changeableKey, keyPermissions } from "../../steps/api-keys/key-permissions.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"

export const UpdateApiKeyInput = Schema.Struct({
  name: Schema.optionalKey(ApiKeyName),
  permissions: Schema.optionalKey(PermissionRefs)
})
export type UpdateApiKeyInput = typeof UpdateApiKeyInput.Type

const sameList = (a: ReadonlyArray<number>, b: ReadonlyArray<number>) =>
  a.length === b.length && a.every((id, i) => id === b[i])

/**
 * Renames a key or sets its permissions, within the caller's own (the key's before and after). A
 * change that changes nothing is answered as it is, and nothing is written.
 */
export const updateApiKey = Effect.fnUntraced(function* (
  actor: Principal,
  id: ApiKeyId,
  input: UpdateApiKeyInput
) {
  const key = yield* changeableKey(actor, id)
  const permissions =
    input.permissions === undefined ? undefined : yield* keyPermissions(actor, input.permissions)
  const name = input.name !== undefined && input.name !== key.name ? input.name : undefined
  const granted =
    permissions !== undefined && !sameList(permissions, key.permissions) ? permissions : undefined
  if (name === undefined && granted === undefined) return toApiKey(key)
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "api_key.updated",
    { type: "api_key", id },
    {
      ...(name === undefined ? {} : { name: [key.name, name] as const }),
      ...(granted === undefined ? {} : { permissions: [key.permissions, granted] as const })
    }
  )
  const updated = yield* (yield* ApiKeyStore).update(
    id,
    { ...(name === undefined ? {} : { name }), ...(granted === undefined ? {} : { permissions: granted }) },
    entry
  )
  if (Option.isNone(updated)) return yield* new NotFound({ entity: "api_key", id })
  return updated.value
})
