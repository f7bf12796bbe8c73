import type { Schema } from "effect"
import { SchemaAST } from "effect"
import { HttpApi } from "effect/http-api"
import { RosterApi } from "./api/roster-api.ts"
import type { CallOptions, RosterPage, RosterPromiseClient } from "./promise-client-types.ts"

export type {
  CallOptions,
  RosterCheck,
  RosterCheckResult,
  RosterList,
  RosterPage,
  RosterPromiseClient
} from "./promise-client-types.ts"

/** A problem Roster answered (RFC 9457): its status, `code`, `detail`, and per-field `errors`. */
export class RosterProblem extends Error {
  override readonly name = "RosterProblem"
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors: ReadonlyArray<{ readonly path: string; readonly message: string }> = []
  ) {
    super(`${status} ${code}: ${detail}`)
  }
}

export interface CreateRosterClientOptions {
  /** Where Roster answers, e.g. `https://roster.example.com`. */
  readonly baseUrl: string | URL
  /** The master key, an API key (`rk_…`) or a session token from `auth.login`; without one the client calls anonymously. */
  readonly token?: string
  /** The organisation the master key acts on (its id or slug); the default one when absent. */
  readonly organization?: string
  /**
   * For a page served by Roster itself (its console): a sign-in keeps its session in an `HttpOnly`
   * cookie rather than answering the token, and later calls are authenticated by that cookie.
   */
  readonly cookieSession?: boolean
  /** The `fetch` to call with; the runtime's own by default. */
  readonly fetch?: (input: URL, init: RequestInit) => Promise<Response>
}

interface Operation {
  readonly group: string
  readonly name: string
  readonly method: string
  readonly path: string
  /** Fields that are not path parameters go in the JSON body, else in the query. */
  readonly hasBody: boolean
  readonly isList: boolean
}

/** The names of the fields a query declares. */
const queryFieldsOf = (query: Schema.Top | undefined) =>
  query !== undefined && SchemaAST.isObjects(query.ast)
    ? query.ast.propertySignatures.map((field) => field.name)
    : []

const operations: Array<Operation> = []
HttpApi.reflect(RosterApi, {
  onGroup: () => {},
  onEndpoint: ({ group, endpoint }) => {
    if (group.identifier === "payments" || group.identifier === "ssoBrowser") return
    operations.push({
      group: group.identifier,
      name: endpoint.identifier,
      method: endpoint.method,
      path: endpoint.path,
      hasBody: endpoint.payload.size > 0,
      isList: queryFieldsOf(endpoint.query).includes("cursor")
    })
  }
})

const problemOf = async (response: Response) => {
  const body = (await response.json().catch(() => ({}))) as {
    readonly code?: string
    readonly detail?: string
    readonly errors?: ReadonlyArray<{ readonly path: string; readonly message: string }>
  }
  return new RosterProblem(
    response.status,
    body.code ?? "unknown",
    body.detail ?? response.statusText,
    body.errors ?? []
  )
}

/**
 * A client for callers without Effect: `roster.team.addRole({ name, roleKey })` resolves to the
 * answer's JSON body and rejects with a `RosterProblem`; list methods iterate every page. Its types
 * come from the same API declaration the server runs; `P`, the product's own permission keys,
 * widens every place a permission key goes (`createRosterClient<"projects.delete">(…)`).
 */
export const createRosterClient = <P extends string = string & {}>(
  options: CreateRosterClientOptions
): RosterPromiseClient<P> => {
  const send = options.fetch ?? ((input: URL, init: RequestInit) => globalThis.fetch(input, init))
  // Under a path prefix (`https://example.com/roster`), the operation's path goes after it.
  const base = new URL(options.baseUrl)
  const prefix = base.pathname.replace(/\/+$/u, "")

  const request = async (operation: Operation, input: Record<string, unknown>, call: CallOptions) => {
    const rest: Record<string, unknown> = { ...input }
    const path = operation.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
      const value = rest[name]
      delete rest[name]
      return encodeURIComponent(String(value))
    })
    const url = new URL(`${prefix}${path}`, base)
    const headers = new Headers({ accept: "application/json" })
    if (options.token !== undefined) headers.set("authorization", `Bearer ${options.token}`)
    if (options.organization !== undefined) headers.set("roster-organization", options.organization)
    if (options.cookieSession === true) headers.set("roster-session", "cookie")
    if (call.idempotencyKey !== undefined) headers.set("idempotency-key", call.idempotencyKey)
    let body: string | undefined
    if (operation.hasBody) {
      headers.set("content-type", "application/json")
      body = JSON.stringify(rest)
    } else {
      for (const [name, value] of Object.entries(rest)) {
        if (value !== undefined) url.searchParams.set(name, String(value))
      }
    }
    const response = await send(url, {
      method: operation.method,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(call.signal === undefined ? {} : { signal: call.signal })
    })
    if (!response.ok) throw await problemOf(response)
    const text = await response.text()
    return {
      body: text === "" ? undefined : (JSON.parse(text) as unknown),
      link: response.headers.get("link")
    }
  }

  const page = async (operation: Operation, input: Record<string, unknown>, call: CallOptions) => {
    const { body, link } = await request(operation, input, call)
    const next = link === null ? undefined : /[?&]cursor=([^&>]+)/u.exec(link)?.[1]
    return {
      items: body as ReadonlyArray<unknown>,
      next: next === undefined ? undefined : decodeURIComponent(next)
    } satisfies RosterPage<unknown>
  }

  const list = (operation: Operation, input: Record<string, unknown>, call: CallOptions) => ({
    firstPage: () => page(operation, input, call),
    async *[Symbol.asyncIterator]() {
      for (let cursor = input.cursor; ; ) {
        const { items, next } = await page(operation, { ...input, cursor }, call)
        yield* items
        if (next === undefined) return
        cursor = next
      }
    }
  })

  const client: Record<string, Record<string, unknown>> = {}
  for (const operation of operations) {
    const group = client[operation.group] ?? {}
    client[operation.group] = group
    group[operation.name] = (input: Record<string, unknown> = {}, call: CallOptions = {}) =>
      operation.isList
        ? list(operation, input, call)
        : request(operation, input, call).then((answer) => answer.body)
  }
  const authorizeOperation = operations.find((operation) => operation.name === "authorize")
  // Its checks as the one argument, its answers as the result: what a product asks on each request.
  const authorize = (checks: ReadonlyArray<object>, call: CallOptions = {}) =>
    request(authorizeOperation as Operation, { checks }, call).then(
      (answer) => (answer.body as { readonly results: unknown }).results
    )
  return { ...client, authorize } as unknown as RosterPromiseClient<P>
}

/**
 * Where a browser starts a single sign-on: the organisation (slug or id), a person's e-mail or a
 * connection, and where it returns (`?code=` or `?error=`). Send the browser there; exchange the code
 * it comes back with by `ssoSignIn.exchangeSsoCode`.
 */
export const ssoSignInUrl = (
  baseUrl: string | URL,
  start: {
    readonly organization?: string
    readonly email?: string
    readonly connection?: string
    readonly returnTo?: string
  }
): string => {
  const url = new URL("api/v1/sso/start", `${String(baseUrl).replace(/\/+$/u, "")}/`)
  for (const [name, value] of Object.entries(start))
    if (value !== undefined) url.searchParams.set(name, value)
  return url.toString()
}
