import { DateTime, Effect, Redacted, Schema } from "effect"
import { ApiKeyName, ApiKeyRecord, PermissionRefs, startOf, toApiKey } from "../../model/api-key.ts"
import { ExpiryPassed } from "../../model/errors.ts"
import { Rfc3339Instant } from "../../model/instant.ts"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { requirePermission } from "../../policy/access.ts"
import { ApiKeyStore } from "../../ports/api-key-store.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { keyPermissions } from "../../steps/api-keys/key-permissions.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"

export const CreateApiKeyInput = Schema.Struct({
  name: ApiKeyName,
  permissions: PermissionRefs,
  expiresAt: Schema.optionalKey(Rfc3339Instant)
})
export type CreateApiKeyInput = typeof CreateApiKeyInput.Type

/**
 * A new API key of the organisation, holding permissions within its creator's. The key is answered
 * this once: only its lookup part and its secret's digest are kept.
 */
export const createApiKey = Effect.fnUntraced(function* (actor: Principal, input: CreateApiKeyInput) {
  yield* requirePermission(actor, "organization.api_keys.write")
  const permissions = yield* keyPermissions(actor, input.permissions)
  const now = yield* DateTime.now
  const expiresAt = input.expiresAt ?? null
  if (expiresAt !== null && !DateTime.isGreaterThan(expiresAt, now)) {
    return yield* new ExpiryPassed({ field: "expiresAt" })
  }
  const issued = yield* (yield* TokenIssuer).issueApiKey()
  const createdBy = auditActorOf(actor)
  const record = new ApiKeyRecord({
    id: yield* (yield* IdGenerator).next("apiKey"),
    name: input.name,
    start: startOf(Redacted.value(issued.key)),
    permissions,
    createdBy,
    createdAt: now,
    expiresAt,
    lastUsedAt: null,
    organizationId: yield* CurrentOrganization,
    lookup: issued.lookup,
    secretHash: issued.secretHash,
    previous: null
  })
  const entry = yield* newAuditEntry(
    createdBy,
    "api_key.created",
    { type: "api_key", id: record.id },
    {
      name: [null, record.name],
      permissions: [null, permissions],
      expiresAt: [null, expiresAt === null ? null : DateTime.formatIso(expiresAt)]
    }
  )
  yield* (yield* ApiKeyStore).insert(record, entry)
  return { apiKey: toApiKey(record), key: issued.key }
})
