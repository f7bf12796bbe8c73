import { Context } from "effect"
import { HttpApi } from "effect/http-api"
import { RequiresPermission } from "../../adapters/http/api/middleware.ts"
import { RosterApi } from "../../adapters/http/api/roster-api.ts"
import { createRosterClient, RosterProblem } from "../../adapters/http/promise-client.ts"
import type { RosterPromiseClient } from "../../adapters/http/promise-client-types.ts"

export { RosterProblem }

/**
 * The API, called from the console's own origin, under the path the service is mounted at (the
 * console is its `/console/`): signing in keeps the session in its cookie.
 */
export const serviceBase = `${location.origin}${location.pathname.replace(/\/console(?:\/.*)?$/u, "")}`

export const roster: RosterPromiseClient = createRosterClient({
  baseUrl: serviceBase,
  cookieSession: true
})

export type Me = Awaited<ReturnType<RosterPromiseClient["auth"]["me"]>>

/** An operation of the API, by its group and name (`team.listMembers`). */
export type Operation = {
  [G in keyof RosterPromiseClient]: `${G & string}.${keyof RosterPromiseClient[G] & string}`
}[keyof RosterPromiseClient]

/** The permission each operation needs, read from the API's declaration. */
const required = new Map<string, string>()
HttpApi.reflect(RosterApi, {
  onGroup: () => {},
  onEndpoint: ({ group, endpoint, mergedAnnotations }) => {
    const permission = Context.get(mergedAnnotations, RequiresPermission)
    if (permission !== undefined) required.set(`${group.identifier}.${endpoint.identifier}`, permission)
  }
})

/**
 * Whether the caller may call `operation`: what is not allowed is not offered. The API decides
 * again on every call.
 */
export const allows = (me: Me, operation: Operation) => {
  const permission = required.get(operation)
  return permission === undefined || (me.permissions as ReadonlyArray<string>).includes(permission)
}

/** The problem a call failed with, or one that says the console could not reach the service. */
export const problemOf = (error: unknown): RosterProblem =>
  error instanceof RosterProblem
    ? error
    : new RosterProblem(0, "unreachable", "The service could not be reached; try again.")
