import { Context, type Effect, type Option } from "effect"
import type { AuditEntry } from "../model/audit.ts"
import type { StoreUnavailable } from "../model/errors.ts"
import type { DomainId } from "../model/ids.ts"
import type { DomainPosition, SsoDomainRecord } from "../model/sso-domain.ts"
import type { DomainTaken } from "../model/sso-errors.ts"

/**
 * The domains organisations claim. Every operation but `findVerified` names the current
 * organisation. No two organisations hold one domain verified, and no organisation claims one
 * domain twice: the store refuses either (`DomainTaken`), whatever the number of instances.
 */
export class DomainStore extends Context.Service<
  DomainStore,
  {
    readonly insert: (
      domain: SsoDomainRecord,
      entry: AuditEntry
    ) => Effect.Effect<void, DomainTaken | StoreUnavailable>
    readonly page: (
      after: DomainPosition | undefined,
      limit: number
    ) => Effect.Effect<ReadonlyArray<SsoDomainRecord>, StoreUnavailable>
    readonly find: (id: DomainId) => Effect.Effect<Option.Option<SsoDomainRecord>, StoreUnavailable>
    /** The organisation holding `domain` verified, any organisation's. */
    readonly findVerified: (domain: string) => Effect.Effect<Option.Option<SsoDomainRecord>, StoreUnavailable>
    /** Writes the domain as verified; none when it is gone. */
    readonly markVerified: (
      verified: SsoDomainRecord,
      entry: AuditEntry
    ) => Effect.Effect<Option.Option<SsoDomainRecord>, DomainTaken | StoreUnavailable>
    readonly remove: (
      id: DomainId,
      entry: AuditEntry
    ) => Effect.Effect<Option.Option<SsoDomainRecord>, StoreUnavailable>
    /** Removes every domain of the organisation (it is being deleted). */
    readonly removeAll: Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/DomainStore") {}
