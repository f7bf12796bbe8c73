import { Effect, Option, type Redacted } from "effect"
import { Forbidden, NotFound, type StoreUnavailable } from "../../model/errors.ts"
import type { OrganizationId } from "../../model/ids.ts"
import { defaultOrganizationId } from "../../model/organization.ts"
import type { Principal } from "../../model/principal.ts"
import { boundOrganizationOf } from "../../policy/access.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { authenticate } from "../../steps/auth/authenticate.ts"

/** A session's request that names an organisation: its own is accepted, any other is forbidden. */
const sessionNaming = Effect.fnUntraced(function* (own: OrganizationId, named: string) {
  const found = yield* (yield* OrganizationStore).findByRef(named)
  if (Option.isSome(found) && found.value.id === own) return own
  return yield* new Forbidden({ reason: "other_organization" })
})

/** The organisation the operator's request names; not found when none matches. */
const operatorNaming = Effect.fnUntraced(function* (named: string) {
  const found = yield* (yield* OrganizationStore).findByRef(named)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "organization", id: named })
  return found.value.id
})

/**
 * The organisation a request acts on, from its caller and the organisation it names (id or slug),
 * if any. A session's is fixed: naming it again is accepted, naming any other (existing or not)
 * is forbidden. The master key and open local mode act on the one named, else on the default one;
 * a name that matches none is not found. Without a name, nothing is read.
 */
export const actingOrganization = (
  principal: Principal,
  named: string | undefined
): Effect.Effect<OrganizationId, Forbidden | NotFound | StoreUnavailable, OrganizationStore> => {
  const bound = boundOrganizationOf(principal)
  if (bound !== undefined) {
    return named === undefined || named === bound ? Effect.succeed(bound) : sessionNaming(bound, named)
  }
  return named === undefined ? Effect.succeed(defaultOrganizationId) : operatorNaming(named)
}

/** The caller a bearer token (or its absence) stands for, and the organisation its request acts on. */
export const identifyCaller = (bearer: Option.Option<Redacted.Redacted<string>>, named: string | undefined) =>
  Effect.flatMap(authenticate(bearer), (principal) =>
    Effect.map(actingOrganization(principal, named), (organizationId) => ({ principal, organizationId }))
  )
