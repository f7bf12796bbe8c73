import { Effect, type Redacted } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { RosterApi } from "./api/roster-api.ts"
import type { RosterClient } from "./effect-client-types.ts"

export type { RosterClient } from "./effect-client-types.ts"

export interface RosterClientOptions {
  /** Where Roster answers, e.g. `https://roster.example.com`; the endpoints' paths carry `/api/v1`. */
  readonly baseUrl: string | URL
  /** The master key, an API key (`rk_…`) or a session token from `auth.login`; without one the client calls anonymously. */
  readonly token?: string | Redacted.Redacted<string>
  /**
   * The organisation the master key acts on (`Roster-Organization`, its id or slug); the default
   * organisation when absent. A session always acts on its own.
   */
  readonly organization?: string
}

/**
 * A client derived from the same HttpApi definition the server runs: payloads are encoded and
 * answers decoded by the server's own schemas, and a declared problem arrives as its typed error
 * (`DuplicateRoleKey`, `Unauthorized`, ...). It runs on whichever `HttpClient` is provided, such
 * as `FetchHttpClient.layer` on Node, Bun, Deno or in a browser. `P`, the product's own permission
 * keys, widens every place a permission key goes (`makeRosterClient<"projects.delete">(…)`).
 */
export const makeRosterClient = <P extends string = string & {}>(options: RosterClientOptions) => {
  const { token, organization } = options
  const withToken = (request: HttpClientRequest.HttpClientRequest) =>
    token === undefined ? request : HttpClientRequest.bearerToken(request, token)
  const withOrganization = (request: HttpClientRequest.HttpClientRequest) =>
    organization === undefined
      ? request
      : HttpClientRequest.setHeader(request, "roster-organization", organization)
  const client = HttpApiClient.make(RosterApi, {
    baseUrl: options.baseUrl,
    ...(token === undefined && organization === undefined
      ? {}
      : { transformClient: HttpClient.mapRequest((request) => withOrganization(withToken(request))) })
  })
  // The same client: its types say which keys a request may name, which the server checks again.
  return Effect.map(client, (made) => made as unknown as RosterClient<P>)
}

export {
  type CallOptions,
  type CreateRosterClientOptions,
  createRosterClient,
  type RosterCheck,
  type RosterCheckResult,
  type RosterList,
  type RosterPage,
  RosterProblem,
  type RosterPromiseClient,
  ssoSignInUrl
} from "./promise-client.ts"
