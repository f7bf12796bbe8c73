import { Context, type Effect, type Option } from "effect"
import type { AuditEntry } from "../model/audit.ts"
import type { DuplicateOrganizationSlug, StoreUnavailable } from "../model/errors.ts"
import type { OrganizationId, RoleId } from "../model/ids.ts"
import type { Organization, OrganizationChanges, OrganizationQuery } from "../model/organization.ts"

/**
 * The organisations of the deployment. The default one exists from the store's start (the layer
 * creates it when missing, safely when several instances start together).
 */
export class OrganizationStore extends Context.Service<
  OrganizationStore,
  {
    readonly findById: (id: OrganizationId) => Effect.Effect<Option.Option<Organization>, StoreUnavailable>
    /** The organisation whose id or slug is `ref`. */
    readonly findByRef: (ref: string) => Effect.Effect<Option.Option<Organization>, StoreUnavailable>
    /** Slugs are unique in the deployment. */
    readonly insert: (
      organization: Organization,
      entry?: AuditEntry
    ) => Effect.Effect<void, DuplicateOrganizationSlug | StoreUnavailable>
    /** Sets `changes` in one atomic write; none when there is no such organisation. */
    readonly update: (
      id: OrganizationId,
      changes: OrganizationChanges,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<Organization>, StoreUnavailable>
    /**
     * Records `roleId` as the organisation's Owner role where none is recorded yet (an organisation
     * stored before they were); a recorded one stays.
     */
    readonly recordOwnerRole: (id: OrganizationId, roleId: RoleId) => Effect.Effect<void, StoreUnavailable>
    /**
     * Marks the organisation as being deleted, in one atomic write: from then on it is found by no
     * lookup nor listed. None when there is no such organisation (or it is being deleted already).
     */
    readonly startDeleting: (
      id: OrganizationId,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<Organization>, StoreUnavailable>
    /** The organisations marked as being deleted whose deletion has not finished (a crash stopped it). */
    readonly beingDeleted: Effect.Effect<ReadonlyArray<OrganizationId>, StoreUnavailable>
    /** Deletes the organisation's own document, the last step of its deletion. */
    readonly remove: (id: OrganizationId) => Effect.Effect<void, StoreUnavailable>
    /** At most `limit` organisations matching the query, oldest first (see `byCreation`). */
    readonly page: (
      query: OrganizationQuery,
      limit: number
    ) => Effect.Effect<ReadonlyArray<Organization>, StoreUnavailable>
  }
>()("roster/core/ports/OrganizationStore") {}
