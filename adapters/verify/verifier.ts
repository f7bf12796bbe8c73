import {
  createLocalJWKSet,
  errors,
  type JSONWebKeySet,
  type JWTHeaderParameters,
  type JWTPayload,
  jwtVerify
} from "jose"

/** What a Roster access token says, once verified (RFC 9068 and Roster's own claims). */
export interface RosterClaims extends JWTPayload {
  readonly iss: string
  readonly sub: string
  readonly exp: number
  readonly iat: number
  readonly client_id: string
  readonly principal: "member" | "api_key"
  readonly org_id: string
  readonly org_slug: string
  readonly role?: string
  readonly permissions: ReadonlyArray<string>
  readonly sid?: string
  readonly amr?: ReadonlyArray<string>
  readonly auth_time?: number
  readonly jti: string
}

export interface RosterVerifierOptions {
  /** Roster's issuer: `ROSTER_PUBLIC_URL`, e.g. `https://app.example.com/roster`. */
  readonly issuer: string
  /** The audience tokens must name (`ROSTER_TOKEN_AUDIENCE`); `roster` when absent. */
  readonly audience?: string
  /** Where the key set is; `{issuer}/.well-known/jwks.json` when absent. */
  readonly jwksUrl?: string
  /** The `fetch` the key set is read with; the runtime's own by default. */
  readonly fetch?: (input: string) => Promise<Response>
}

/** A token the verifier refused, and why (never a 500: the product answers it 401). */
export class RosterTokenError extends Error {
  override readonly name = "RosterTokenError"
}

export interface RosterVerifier {
  /** The token's claims, or a `RosterTokenError`. */
  readonly verify: (token: string) => Promise<RosterClaims>
  /**
   * Whether the claims hold `permission` in `organization`: the id or slug the request is about,
   * or `"any"`. A token's permissions hold in its own organisation alone.
   */
  readonly can: (claims: RosterClaims, permission: string, organization: string) => boolean
}

/** Seconds of clock difference allowed each way. */
const skewSeconds = 30
/** A key set is kept no longer than this, whatever its `max-age` says. */
const longestKeep = 300
/** An unknown `kid` fetches the key set again at most this often. */
const refetchAfterSeconds = 60

/** The `max-age` of an answer's `Cache-Control`, at most `longestKeep`; none said: `longestKeep`. */
const maxAgeOf = (response: Response) => {
  const said = /(?:^|,)\s*max-age=(\d+)/iu.exec(response.headers.get("cache-control") ?? "")?.[1]
  return said === undefined ? longestKeep : Math.min(Number(said), longestKeep)
}

const refusal = (error: unknown): RosterTokenError =>
  error instanceof RosterTokenError
    ? error
    : new RosterTokenError(
        error instanceof errors.JOSEError ? error.message : "The token is not a Roster access token"
      )

const isClaims = (payload: JWTPayload): payload is RosterClaims =>
  typeof payload.sub === "string" &&
  typeof payload.org_id === "string" &&
  typeof payload.org_slug === "string" &&
  typeof payload.iat === "number" &&
  Array.isArray(payload.permissions) &&
  payload.permissions.every((permission) => typeof permission === "string")

/**
 * Verifies Roster's access tokens offline: EdDSA or ES256 only, as the key its `kid` names in
 * Roster's key set says (never `none`, an HMAC, or a key the token carries), `typ` `at+jwt`, the
 * issuer and audience, an `exp` not past and an `nbf` and `iat` not ahead, 30 s of skew each way.
 * The key set is kept no longer than its `max-age`, and fetched again, at most once a minute, for a
 * `kid` it does not hold.
 */
export const createRosterVerifier = (options: RosterVerifierOptions): RosterVerifier => {
  const issuer = options.issuer.replace(/\/+$/u, "")
  const audience = options.audience ?? "roster"
  const jwksUrl = options.jwksUrl ?? `${issuer}/.well-known/jwks.json`
  const read = options.fetch ?? ((input: string) => globalThis.fetch(input))
  let held: { readonly keys: ReturnType<typeof createLocalJWKSet>; readonly until: number } | undefined
  let fetchedAt = Number.NEGATIVE_INFINITY
  let fetching: Promise<ReturnType<typeof createLocalJWKSet>> | undefined

  const fetchKeys = () => {
    fetching ??= (async () => {
      try {
        fetchedAt = Date.now()
        const response = await read(jwksUrl)
        if (!response.ok)
          throw new RosterTokenError(`Roster's key set could not be read (${response.status})`)
        const keys = createLocalJWKSet((await response.json()) as JSONWebKeySet)
        held = { keys, until: Date.now() + maxAgeOf(response) * 1000 }
        return keys
      } finally {
        fetching = undefined
      }
    })()
    return fetching
  }
  const currentKeys = () => (held !== undefined && Date.now() < held.until ? held.keys : fetchKeys())

  const keyFor = async (header: JWTHeaderParameters) => {
    try {
      return await (await currentKeys())(header)
    } catch (error) {
      const unknown =
        error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys
      if (!unknown || Date.now() - fetchedAt < refetchAfterSeconds * 1000) throw error
      return (await fetchKeys())(header)
    }
  }

  return {
    verify: async (token) => {
      try {
        const { payload } = await jwtVerify(token, keyFor, {
          issuer,
          audience,
          typ: "at+jwt",
          algorithms: ["EdDSA", "ES256"],
          requiredClaims: ["exp", "iat", "sub"],
          clockTolerance: skewSeconds
        })
        if ((payload.iat ?? 0) > Date.now() / 1000 + skewSeconds)
          throw new RosterTokenError("The token was issued in the future")
        if (!isClaims(payload))
          throw new RosterTokenError("The token lacks the claims of a Roster access token")
        return payload
      } catch (error) {
        throw refusal(error)
      }
    },
    can: (claims, permission, organization) => {
      if (typeof organization !== "string" || organization === "")
        throw new TypeError('can() needs the organisation the request is about (an id or a slug), or "any"')
      const here =
        organization === "any" || organization === claims.org_id || organization === claims.org_slug
      return here && claims.permissions.includes(permission)
    }
  }
}
