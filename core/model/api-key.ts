import { Option, Schema } from "effect"
import { AuditActor } from "./audit.ts"
import { ApiKeyId, OrganizationId, PermissionId, TokenHash } from "./ids.ts"
import { cursorOf } from "./page.ts"
import { PermissionRef } from "./permission.ts"
import { inNfc, isDisplayable } from "./text.ts"

/** What an administrator calls a key: the integration that holds it, say. */
export const ApiKeyName = inNfc(
  Schema.String.check(Schema.isTrimmed(), Schema.isBetweenLength(1, 100), isDisplayable)
)

/** The public part of a key, which finds it in the store: 16 hexadecimal digits. */
export const ApiKeyLookup = Schema.String.check(Schema.isPattern(/^[0-9a-f]{16}$/)).pipe(
  // Stryker disable next-line StringLiteral: a brand's name exists for the type checker; no value at run time depends on it
  Schema.brand("ApiKeyLookup")
)
export type ApiKeyLookup = typeof ApiKeyLookup.Type

/** `rk_`, the lookup part, `_`, then the secret: 32 random bytes or more in base64url. */
const keyFormat = /^rk_([0-9a-f]{16})_([A-Za-z0-9_-]{43,128})$/

/** Whether a bearer token is meant as an API key: it is one, or a malformed one. */
export const looksLikeApiKey = (token: string): boolean => token.startsWith("rk_")

/** A key's two parts, none when it is not in the key's format. */
export const apiKeyParts = (
  key: string
): Option.Option<{ readonly lookup: ApiKeyLookup; readonly secret: string }> => {
  const parts = keyFormat.exec(key)
  return parts === null
    ? Option.none()
    : Option.some({ lookup: ApiKeyLookup.make(parts[1] as string), secret: parts[2] as string })
}

/** The first characters of a key, kept and shown so that people recognise it among theirs. */
export const startOf = (key: string): string => key.slice(0, 10)

/**
 * An organisation's API key as it is listed: never the key. `permissions` is what it acts with,
 * set by its creator within their own; it outlives its creator (`createdBy`), as the
 * organisation's.
 */
export class ApiKey extends Schema.Class<ApiKey>("roster/ApiKey")({
  id: ApiKeyId,
  name: ApiKeyName,
  start: Schema.String,
  permissions: Schema.Array(PermissionId),
  createdBy: AuditActor,
  createdAt: Schema.DateTimeUtc,
  expiresAt: Schema.NullOr(Schema.DateTimeUtc),
  /** To the minute: written at most once a minute. */
  lastUsedAt: Schema.NullOr(Schema.DateTimeUtc)
}) {}

/** The secret a rotation replaced, which keeps working until its grace ends. */
export const PreviousSecret = Schema.Struct({ secretHash: TokenHash, until: Schema.DateTimeUtc })
export type PreviousSecret = typeof PreviousSecret.Type

/** An API key as stored: found by its lookup part, its secret known only by its digest. */
// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class ApiKeyRecord extends Schema.Class<ApiKeyRecord>("roster/ApiKeyRecord")({
  ...ApiKey.fields,
  organizationId: OrganizationId,
  lookup: ApiKeyLookup,
  secretHash: TokenHash,
  previous: Schema.NullOr(PreviousSecret)
}) {}

export const toApiKey = (record: ApiKeyRecord): ApiKey =>
  new ApiKey(
    {
      id: record.id,
      name: record.name,
      start: record.start,
      permissions: record.permissions,
      createdBy: record.createdBy,
      createdAt: record.createdAt,
      expiresAt: record.expiresAt,
      lastUsedAt: record.lastUsedAt
    },
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: checking a checked record again changes its cost, never its result
    { disableChecks: true }
  )

/** Permissions as a client names them: by id or by key. */
export const PermissionRefs = Schema.Array(PermissionRef).check(Schema.isMaxLength(50))

export const ApiKeyPosition = Schema.Struct({ createdAt: Schema.DateTimeUtcFromMillis, id: ApiKeyId })
export type ApiKeyPosition = typeof ApiKeyPosition.Type
export const ApiKeyCursor = cursorOf(ApiKeyPosition)
