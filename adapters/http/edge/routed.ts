import { Context, Effect, Option, Redacted } from "effect"
import type { OrganizationId, Principal } from "../../../core/index.ts"

export interface ConnectionInfo {
  /**
   * The peer's address as the server saw it; login throttling counts per address. Read only when a
   * request needs it, so a server may compute it lazily (a getter).
   */
  readonly remoteAddress?: string | undefined
  /**
   * The path the host serves Roster under (`/roster`), set by `toNodeHandler` and `toWebHandler`,
   * never by a request: the absolute links Roster makes (single sign-on's, SCIM's) carry it.
   */
  readonly mountPath?: string | undefined
}

/**
 * The credentials a request presents: none (no `Authorization`), a bearer token, or something
 * else, which is refused as bad credentials, never taken for none.
 */
export type Bearer = Option.Option<Redacted.Redacted<string>> | "malformed"

/** The bearer token of an `Authorization` header; the scheme's name in any case (RFC 9110). */
export const bearerOf = (authorization: string | null): Bearer => {
  if (authorization === null) return Option.none()
  const token = /^Bearer +(\S+) *$/iu.exec(authorization)?.[1]
  return token === undefined ? "malformed" : Option.some(Redacted.make(token))
}

/** The organisation a request names (`Roster-Organization`), if it names one; an empty name stays empty, to be refused. */
export const organizationOf = (header: string | null): string | undefined =>
  header === null ? undefined : header.trim()

/** What the edge knows of a request it hands to the router. */
export interface Routed {
  readonly requestId: string
  /** The request's path, read once from its URL. */
  readonly path: string
  readonly connection: ConnectionInfo | undefined
  /** Read once from `Authorization`, by the edge. */
  readonly bearer: Bearer
  /** The organisation the request names (`Roster-Organization`: id or slug), if it names one. */
  readonly organization: string | undefined
  /** Why the request ended in a 500: logged by the edge, never sent. */
  failure?: string
  /** The request's span, when an operator traces: its log line names it. */
  span?: { readonly traceId: string; readonly spanId: string }
}

/** What a request presents of who it is and where it acts. */
export type Credentials = Pick<Routed, "bearer" | "organization">

/** An authenticated caller and the organisation its request acts on. */
export interface Caller {
  readonly principal: Principal
  readonly organizationId: OrganizationId
}

/**
 * The request as the edge took it in, set once when it hands the request to the router and read
 * where needed (the client's address for login throttling, the failure for the log line).
 */
export class EdgeRequest extends Context.Service<EdgeRequest, Routed>()("roster/http/EdgeRequest") {}

/**
 * Who the credentials identified, when the edge needed to know before the router (a keyed
 * request's scope): handed to the router in the request's context, where its authentication takes
 * it rather than asking the store again.
 */
export class IdentifiedCaller extends Context.Service<IdentifiedCaller, Caller>()(
  "roster/http/IdentifiedCaller"
) {}

/** Who is calling, for throttling: callers whose address the server cannot tell share one bucket. */
export const throttledClient = EdgeRequest.useSync((routed) => routed.connection?.remoteAddress ?? "unknown")

/** The path the host mounted Roster under (`ConnectionInfo.mountPath`); `""` at the root. */
export const currentMountPath = Effect.map(Effect.serviceOption(EdgeRequest), (routed) =>
  Option.isSome(routed) ? (routed.value.connection?.mountPath ?? "") : ""
)

/** How many mount paths' makings are kept: a host has one or two; a mount by a path parameter more. */
const keptMounts = 16

/**
 * `make` of the path the host mounted Roster under, made once per path and kept. Only the latest
 * `keptMounts` are: a mount whose path holds a parameter (`/:tenant/roster`) names a path per
 * tenant, which must not grow the process without end.
 */
export const oncePerMount = <A>(make: (mountPath: string) => A) => {
  const made = new Map<string, A>()
  return Effect.map(currentMountPath, (mountPath) => {
    if (made.has(mountPath)) return made.get(mountPath) as A
    const fresh = make(mountPath)
    if (made.size >= keptMounts) made.delete(made.keys().next().value as string)
    made.set(mountPath, fresh)
    return fresh
  })
}
