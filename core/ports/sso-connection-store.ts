import { Context, type Effect, type Option } from "effect"
import type { AuditEntry } from "../model/audit.ts"
import type { StoreUnavailable } from "../model/errors.ts"
import type { OrganizationId, SsoConnectionId } from "../model/ids.ts"
import type { SsoConnectionPosition, SsoConnectionRecord } from "../model/sso-connection.ts"

/**
 * The organisations' connections to their identity providers. Every operation but `findAnywhere`
 * and `enabledOf` names the current organisation; each change is written with its audit entry.
 */
export class SsoConnectionStore extends Context.Service<
  SsoConnectionStore,
  {
    readonly insert: (
      connection: SsoConnectionRecord,
      entry: AuditEntry
    ) => Effect.Effect<void, StoreUnavailable>
    readonly page: (
      after: SsoConnectionPosition | undefined,
      limit: number
    ) => Effect.Effect<ReadonlyArray<SsoConnectionRecord>, StoreUnavailable>
    readonly find: (
      id: SsoConnectionId
    ) => Effect.Effect<Option.Option<SsoConnectionRecord>, StoreUnavailable>
    /** A connection, whichever organisation's: what a sign-in names. */
    readonly findAnywhere: (
      id: SsoConnectionId
    ) => Effect.Effect<Option.Option<SsoConnectionRecord>, StoreUnavailable>
    /** The organisation's enabled connections, oldest first. */
    readonly enabledOf: (
      organizationId: OrganizationId
    ) => Effect.Effect<ReadonlyArray<SsoConnectionRecord>, StoreUnavailable>
    /** Writes the connection in place of the stored one of its id; none when that is gone. */
    readonly replace: (
      connection: SsoConnectionRecord,
      entry: AuditEntry
    ) => Effect.Effect<Option.Option<SsoConnectionRecord>, StoreUnavailable>
    /** Deletes the connection and the identities linked through it. */
    readonly remove: (
      id: SsoConnectionId,
      entry: AuditEntry
    ) => Effect.Effect<Option.Option<SsoConnectionRecord>, StoreUnavailable>
    readonly removeAll: Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/SsoConnectionStore") {}
