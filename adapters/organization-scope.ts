import type { Effect } from "effect"
import { CurrentOrganization, type OrganizationId } from "../core/index.ts"

/** Runs a store operation in the organisation the use case acts on: every query names it. */
export const inOrganization = <A, E, R>(
  operation: (organizationId: OrganizationId) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> => CurrentOrganization.use(operation)

/** `inOrganization` for an operation that cannot fail. */
export const syncInOrganization = <A>(operation: (organizationId: OrganizationId) => A): Effect.Effect<A> =>
  CurrentOrganization.useSync(operation)
