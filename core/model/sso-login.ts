import { Schema } from "effect"
import { MemberId, OrganizationId, SsoConnectionId, TokenHash } from "./ids.ts"
import { Email } from "./member.ts"

/** Who an identity provider proved: its subject (OIDC `sub`, SAML `NameID`) and the e-mail it asserts. */
export const ProvenIdentity = Schema.Struct({
  subject: Schema.String.check(Schema.isBetweenLength(1, 512)),
  email: Schema.NullOr(Schema.String)
})
export type ProvenIdentity = typeof ProvenIdentity.Type

/**
 * A sign-in under way, from its start to the provider's answer: known by the digest of its `state`
 * (OIDC's `state`, SAML's `RelayState`), bound to the browser that started it by the digest of a
 * cookie it was given, used once. A SAML answer posted across sites (without the cookie) is proven
 * first (`proven`), and the browser, sent back to Roster, completes it with its cookie.
 */
export class SsoLogin extends Schema.Class<SsoLogin>("roster/SsoLogin")({
  stateHash: TokenHash,
  bindingHash: TokenHash,
  connectionId: SsoConnectionId,
  organizationId: OrganizationId,
  /** Where the browser goes at the end: a path of the console, or an allowed URL. */
  returnTo: Schema.String,
  createdAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc,
  proven: Schema.NullOr(ProvenIdentity)
}) {}

/** An account's identity at a connection: who signs in as that account through it. */
export class SsoIdentity extends Schema.Class<SsoIdentity>("roster/SsoIdentity")({
  connectionId: SsoConnectionId,
  subject: Schema.String,
  accountId: MemberId,
  organizationId: OrganizationId,
  createdAt: Schema.DateTimeUtc
}) {}

/** An assertion a connection accepted, kept until it expires so that it is accepted once. */
export class SpentAssertion extends Schema.Class<SpentAssertion>("roster/SpentAssertion")({
  connectionId: SsoConnectionId,
  assertionId: Schema.String,
  expiresAt: Schema.DateTimeUtc
}) {}

/**
 * What an identity provider's answer proved, and, for SAML, the assertion to accept once, and
 * whether it answers the sign-in's own request (an IdP-initiated one answers none: it is spent, and
 * refused).
 */
export interface ProviderAnswer extends ProvenIdentity {
  readonly assertion?: { readonly id: string; readonly expiresAt: number; readonly answersRequest: boolean }
}

/** Where Roster is reached from outside: the base of the URLs an identity provider is given. */
export interface ServiceUrls {
  readonly base: string
}

export const spEntityIdOf = (urls: ServiceUrls, connectionId: string) =>
  `${urls.base}/api/v1/sso/saml/${connectionId}/metadata`
export const acsUrlOf = (urls: ServiceUrls) => `${urls.base}/api/v1/sso/saml/acs`
export const redirectUriOf = (urls: ServiceUrls) => `${urls.base}/api/v1/sso/oidc/callback`

/** How long a started sign-in may be answered; how long the code it ends with may be exchanged. */
export const ssoLoginSeconds = 600
export const ssoCodeSeconds = 60

/** How a sign-in is started: by the organisation, by a person's e-mail, or by a connection. */
export const StartSsoInput = Schema.Struct({
  organization: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 128))),
  email: Schema.optionalKey(Email),
  connection: Schema.optionalKey(SsoConnectionId),
  returnTo: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 2048)))
})
export type StartSsoInput = typeof StartSsoInput.Type

export const SsoCodeInput = Schema.Struct({ code: Schema.String.check(Schema.isBetweenLength(1, 256)) })
export type SsoCodeInput = typeof SsoCodeInput.Type

export const LinkSsoIdentityInput = Schema.Struct({
  connectionId: SsoConnectionId,
  subject: Schema.String.check(Schema.isBetweenLength(1, 512))
})
export type LinkSsoIdentityInput = typeof LinkSsoIdentityInput.Type

/** Where a sign-in returns when it names nowhere: the console. */
export const consoleReturn = "/console/"

/** A path of the console, on this service: never another host (`//`), never a backslash. */
export const isConsolePath = (returnTo: string): boolean =>
  /^\/console(?:[/?#]|$)/u.test(returnTo) && !/[\\]|\/\//u.test(returnTo)

/**
 * Whether a sign-in may return to `returnTo`: a path of the console, or a URL under one of
 * `allowed` (each a URL; under it means the same or below its path, never a longer host name).
 */
export const returnAllowed = (returnTo: string, allowed: ReadonlyArray<string>): boolean =>
  // Spaces and controls have no place in a URL, least of all in a Location header.
  ![...returnTo].some((character) => character <= " " || character === "\u007f") &&
  (isConsolePath(returnTo) ||
    allowed.some((prefix) => {
      const base = prefix.replace(/\/+$/u, "")
      return returnTo === base || ["/", "?", "#"].some((next) => returnTo.startsWith(`${base}${next}`))
    }))
