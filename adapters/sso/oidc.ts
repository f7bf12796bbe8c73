import { Effect, Redacted } from "effect"
import type * as Client from "openid-client"
import {
  ConnectionInvalid,
  IdpUnavailable,
  type ProviderAnswer,
  redirectUriOf,
  type ServiceUrls,
  type SsoConnectionRecord,
  SsoRefused
} from "../../core/index.ts"
import { loadedOnFirstUse } from "../runtime/loaded-on-first-use.ts"
import { derivedFrom } from "./derived.ts"

// With its JOSE stack, loaded with the first OIDC connection's use.
const openIdClient = loadedOnFirstUse(() => import("openid-client"))

/** How long an issuer's discovery (and its keys) is trusted before it is read again. */
const discoveryMs = 10 * 60 * 1000
const remembered = 500

type Oidc = NonNullable<SsoConnectionRecord["oidc"]>

/** Network failures, time-outs and server errors: the provider is down, not wrong. */
const unreachable = (error: unknown): boolean =>
  error instanceof TypeError ||
  (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) ||
  (error instanceof Error && error.cause instanceof Response && error.cause.status >= 500)

const discover = async (issuer: string) => {
  const client = await openIdClient()
  return client.discovery(new URL(issuer), "roster", undefined, undefined, {
    timeout: 10,
    ...(issuer.startsWith("http:") ? { execute: [client.allowInsecureRequests] } : {})
  })
}

/**
 * A connection's client at its issuer, discovered once per connection and change and kept for ten
 * minutes, with the issuer's keys: no request rediscovers it. The client authenticates as the
 * issuer prefers: `client_secret_basic` when it takes it, else `client_secret_post`.
 */
const clients = new Map<string, { readonly config: Promise<Client.Configuration>; readonly until: number }>()
const clientOf = (connection: SsoConnectionRecord, oidc: Oidc, secret: Redacted.Redacted<string>) => {
  const key = `${connection.id}/${connection.updatedAt.epochMilliseconds}`
  const known = clients.get(key)
  if (known !== undefined && known.until > Date.now()) return known.config
  const config = discover(oidc.issuer).then(async (discovered) => {
    const client = await openIdClient()
    const server = discovered.serverMetadata()
    const methods = server.token_endpoint_auth_methods_supported ?? ["client_secret_basic"]
    const secretValue = Redacted.value(secret)
    const made = new client.Configuration(
      server,
      oidc.clientId,
      undefined,
      methods.includes("client_secret_basic")
        ? client.ClientSecretBasic(secretValue)
        : client.ClientSecretPost(secretValue)
    )
    made.timeout = 10
    if (oidc.issuer.startsWith("http:")) client.allowInsecureRequests(made)
    return made
  })
  // A failed discovery is not kept: the next sign-in asks again.
  config.catch(() => clients.delete(key))
  if (clients.size >= remembered) clients.delete(clients.keys().next().value ?? "")
  clients.set(key, { config, until: Date.now() + discoveryMs })
  return config
}

export const checkIssuer = (issuer: string) =>
  Effect.tryPromise({
    try: () => discover(issuer),
    catch: () =>
      new ConnectionInvalid({
        field: "issuer",
        message: `No OpenID configuration could be read at ${issuer.replace(/\/$/u, "")}/.well-known/openid-configuration`
      })
  }).pipe(Effect.asVoid)

export const oidcSignInUrl = (
  connection: SsoConnectionRecord,
  oidc: Oidc,
  secret: Redacted.Redacted<string>,
  state: Redacted.Redacted<string>,
  urls: ServiceUrls
) =>
  Effect.tryPromise({
    try: async () => {
      const config = await clientOf(connection, oidc, secret)
      const client = await openIdClient()
      const stateValue = Redacted.value(state)
      const challenge = await client.calculatePKCECodeChallenge(derivedFrom(stateValue, "pkce"))
      return client
        .buildAuthorizationUrl(config, {
          redirect_uri: redirectUriOf(urls),
          scope: oidc.scopes.join(" "),
          code_challenge: challenge,
          code_challenge_method: "S256",
          state: stateValue,
          nonce: derivedFrom(stateValue, "nonce")
        })
        .toString()
    },
    catch: () => new IdpUnavailable()
  })

/** The e-mail a provider asserts: one it says it has not verified is none. */
const emailOf = (claims: Record<string, unknown>): string | null =>
  typeof claims.email === "string" && claims.email_verified !== false ? claims.email : null

/**
 * Exchanges the callback's code (PKCE's verifier with it) and checks the ID token by the issuer's
 * keys: its issuer, audience, expiry, issue time and nonce, and the callback's state. The e-mail is
 * the ID token's, else userinfo's.
 */
export const oidcAnswer = (
  connection: SsoConnectionRecord,
  oidc: Oidc,
  secret: Redacted.Redacted<string>,
  state: Redacted.Redacted<string>,
  callbackUrl: string
) =>
  Effect.tryPromise({
    try: async (): Promise<ProviderAnswer> => {
      const config = await clientOf(connection, oidc, secret)
      const client = await openIdClient()
      const stateValue = Redacted.value(state)
      const tokens = await client.authorizationCodeGrant(config, new URL(callbackUrl), {
        pkceCodeVerifier: derivedFrom(stateValue, "pkce"),
        expectedState: stateValue,
        expectedNonce: derivedFrom(stateValue, "nonce"),
        idTokenExpected: true
      })
      const claims = tokens.claims()
      if (claims === undefined) throw new Error("no ID token")
      const email = emailOf(claims)
      if (email !== null || config.serverMetadata().userinfo_endpoint === undefined) {
        return { subject: claims.sub, email }
      }
      const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub)
      return { subject: claims.sub, email: emailOf(userinfo) }
    },
    catch: (error) => (unreachable(error) ? new IdpUnavailable() : new SsoRefused({ reason: "answer" }))
  })
