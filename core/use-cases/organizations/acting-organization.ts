import { Effect, Option, type Redacted } from "effect"
import { Forbidden, NotFound } from "../../model/errors.ts"
import { defaultOrganizationId } from "../../model/organization.ts"
import type { Principal } from "../../model/principal.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { authenticate } from "../auth/authenticate.ts"

/**
 * The organisation a request acts on, from its caller and the organisation it names (id or slug),
 * if any. A session's is fixed: naming it again is accepted, naming any other (existing or not)
 * is forbidden. The master key and open local mode act on the one named, else on the default one;
 * a name that matches none is not found. Without a name, nothing is read.
 */
export const actingOrganization = Effect.fnUntraced(function* (
  principal: Principal,
  named: string | undefined
) {
  if (principal._tag === "Member") {
    if (named === undefined || named === principal.organizationId) return principal.organizationId
    const found = yield* (yield* OrganizationStore).findByRef(named)
    if (Option.isSome(found) && found.value.id === principal.organizationId) return principal.organizationId
    return yield* new Forbidden({ reason: "other_organization" })
  }
  if (named === undefined) return defaultOrganizationId
  const found = yield* (yield* OrganizationStore).findByRef(named)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "organization", id: named })
  return found.value.id
})

/** The caller a bearer token (or its absence) stands for, and the organisation its request acts on. */
export const identifyCaller = (bearer: Option.Option<Redacted.Redacted<string>>, named: string | undefined) =>
  Effect.flatMap(authenticate(bearer), (principal) =>
    Effect.map(actingOrganization(principal, named), (organizationId) => ({ principal, organizationId }))
  )
