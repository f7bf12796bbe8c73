import { Context, type DateTime, type Effect, type Option } from "effect"
import type { ApiKey, ApiKeyLookup, ApiKeyPosition, ApiKeyRecord, PreviousSecret } from "../model/api-key.ts"
import type { AuditEntry } from "../model/audit.ts"
import type { StoreUnavailable } from "../model/errors.ts"
import type { ApiKeyId, PermissionId, TokenHash } from "../model/ids.ts"

/** What a change of a key sets: its name, its permissions, or both. */
export interface ApiKeyChanges {
  readonly name?: string
  readonly permissions?: ReadonlyArray<PermissionId>
}

/** A rotation: the new secret's digest, and the old one while its grace lasts (none: at once). */
export interface ApiKeyRotation {
  readonly secretHash: TokenHash
  readonly previous: PreviousSecret | null
}

/**
 * The organisations' API keys. Every operation but `findByLookup` names the current organisation;
 * a lookup part finds its key wherever it is, as authenticating needs, in one read. Each change is
 * written with its audit entry; a revoked key is gone at once.
 */
export class ApiKeyStore extends Context.Service<
  ApiKeyStore,
  {
    readonly insert: (key: ApiKeyRecord, entry: AuditEntry) => Effect.Effect<void, StoreUnavailable>
    /** The organisation's keys after `after`, oldest first, at most `limit`. */
    readonly page: (
      after: ApiKeyPosition | undefined,
      limit: number
    ) => Effect.Effect<ReadonlyArray<ApiKey>, StoreUnavailable>
    readonly find: (id: ApiKeyId) => Effect.Effect<Option.Option<ApiKeyRecord>, StoreUnavailable>
    readonly findByLookup: (
      lookup: ApiKeyLookup
    ) => Effect.Effect<Option.Option<ApiKeyRecord>, StoreUnavailable>
    /** Answers the key as changed; none when there is no such key. */
    readonly update: (
      id: ApiKeyId,
      changes: ApiKeyChanges,
      entry: AuditEntry
    ) => Effect.Effect<Option.Option<ApiKey>, StoreUnavailable>
    /** Answers the key as rotated; none when there is no such key. */
    readonly rotate: (
      id: ApiKeyId,
      rotation: ApiKeyRotation,
      entry: AuditEntry
    ) => Effect.Effect<Option.Option<ApiKey>, StoreUnavailable>
    /** Deletes the key; answers what was deleted, none when there was no such key. */
    readonly revoke: (
      id: ApiKeyId,
      entry: AuditEntry
    ) => Effect.Effect<Option.Option<ApiKey>, StoreUnavailable>
    /** Deletes every key of the organisation (it is being deleted). */
    readonly removeAll: Effect.Effect<void, StoreUnavailable>
    /**
     * How many keys, in every organisation, name `permissionId` in their list: in one read, since
     * retiring a permission counts them while its grants wait.
     */
    readonly countHolding: (permissionId: PermissionId) => Effect.Effect<number, StoreUnavailable>
    /**
     * Records that the key was used in the minute `at`, unless a use in that minute or a later one
     * is recorded already: two instances noting the same minute write it once. Any organisation's.
     */
    readonly noteUse: (id: ApiKeyId, at: DateTime.Utc) => Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/ApiKeyStore") {}
