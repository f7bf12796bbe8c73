import { Context, type Effect } from "effect"
import type { OrganizationId } from "./ids.ts"
import { defaultOrganizationId } from "./organization.ts"
import type { ServiceUrls } from "./sso-login.ts"

/** The id of the request a use case serves, if any: audit entries name it. */
// Stryker disable next-line StringLiteral: the key only has to be unique; no value at run time depends on its text
export const CurrentRequestId = Context.Reference<string | undefined>("roster/core/CurrentRequestId", {
  defaultValue: () => undefined
})

/**
 * The name of the Idempotency-Key claim of the request a use case serves, if it carries a key,
 * unique to that claim: a change's audit entry keeps it, written with the change, so that a retry
 * after an unknown outcome finds what the first attempt did.
 */
// Stryker disable next-line StringLiteral: the key only has to be unique; no value at run time depends on its text
export const CurrentRequestKey = Context.Reference<string | undefined>("roster/core/CurrentRequestKey", {
  defaultValue: () => undefined
})

/**
 * The organisation a use case acts on: every store query names it. A request's is fixed by its
 * caller (a session's organisation, or the one the master key names); an embedding that serves one
 * team never sets it and acts on the default organisation.
 */
// Stryker disable next-line StringLiteral: the key only has to be unique; no value at run time depends on its text
export const CurrentOrganization = Context.Reference<OrganizationId>("roster/core/CurrentOrganization", {
  defaultValue: () => defaultOrganizationId
})

/** Where the request a use case serves comes from, as a session opened by it keeps it: never trusted. */
export interface RequestOrigin {
  readonly address: string | null
  readonly userAgent: string | null
}

/** The current request's origin; none outside a request (an embedding's own calls). */
// Stryker disable next-line StringLiteral: the key only has to be unique; no value at run time depends on its text
export const CurrentOrigin = Context.Reference<RequestOrigin>("roster/core/CurrentOrigin", {
  defaultValue: () => ({ address: null, userAgent: null })
})

/**
 * Where the service is reached from outside, for the URLs it gives identity providers and browsers:
 * `ROSTER_PUBLIC_URL`, else the request's own origin (and the path it is mounted under).
 */
// Stryker disable next-line StringLiteral: the key only has to be unique; no value at run time depends on its text
export const CurrentServiceUrls = Context.Reference<ServiceUrls>("roster/core/CurrentServiceUrls", {
  defaultValue: () => ({ base: "http://localhost" })
})

/** Runs a store operation in the organisation the use case acts on: every query names it. */
export const inOrganization = <A, E, R>(
  operation: (organizationId: OrganizationId) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> => CurrentOrganization.use(operation)

/** `inOrganization` for an operation that cannot fail. */
export const syncInOrganization = <A>(operation: (organizationId: OrganizationId) => A): Effect.Effect<A> =>
  CurrentOrganization.useSync(operation)
