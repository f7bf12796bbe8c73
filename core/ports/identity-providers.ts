import { Context, type Effect, type Redacted } from "effect"
import type { SsoConnectionRecord } from "../model/sso-connection.ts"
import type { ConnectionInvalid, IdpUnavailable, SsoRefused } from "../model/sso-errors.ts"
import type { ProviderAnswer, ServiceUrls } from "../model/sso-login.ts"

/** What an identity provider sent back to Roster: OIDC's callback URL, or SAML's posted response. */
export type ProviderReply =
  | { readonly kind: "oidc"; readonly callbackUrl: string }
  | { readonly kind: "saml"; readonly samlResponse: string }

/** A SAML IdP as its metadata or its administrator describes it. */
export interface SamlProvider {
  readonly entityId: string
  readonly ssoUrl: string
  /** Its signing certificates, base64 DER. */
  readonly certificates: ReadonlyArray<string>
}

/**
 * The protocols single sign-on speaks (OIDC, SAML 2.0). `secret` is a connection's opened secret:
 * OIDC's client secret, SAML's SP private key. `state` is the sign-in's secret, from which the
 * adapter derives what the protocol binds to it (PKCE's verifier, the nonce, the AuthnRequest's id),
 * so nothing of them is stored.
 */
export class IdentityProviders extends Context.Service<
  IdentityProviders,
  {
    /** Reads the issuer's discovery document, so a connection that cannot work is refused when made. */
    readonly checkIssuer: (issuer: string) => Effect.Effect<void, ConnectionInvalid>
    readonly readMetadata: (xml: string) => Effect.Effect<SamlProvider, ConnectionInvalid>
    /** A certificate as base64 DER, from PEM or base64 DER; refused when it is none. */
    readonly readCertificate: (text: string, field: string) => Effect.Effect<string, ConnectionInvalid>
    /** Checks an IdP's sign-in address is one Roster may send browsers to. */
    readonly checkProviderUrl: (url: string, field: string) => Effect.Effect<void, ConnectionInvalid>
    /** A new SP key and its self-signed certificate (base64 DER), for one SAML connection. */
    readonly newServiceProviderKey: Effect.Effect<{
      readonly privateKey: Redacted.Redacted<string>
      readonly certificate: string
    }>
    /** Where the browser is sent to sign in. */
    readonly signInUrl: (
      connection: SsoConnectionRecord,
      secret: Redacted.Redacted<string>,
      state: Redacted.Redacted<string>,
      urls: ServiceUrls
    ) => Effect.Effect<string, IdpUnavailable>
    /** Whom the provider's reply proves, every check of its protocol passed. */
    readonly readReply: (
      connection: SsoConnectionRecord,
      secret: Redacted.Redacted<string>,
      state: Redacted.Redacted<string>,
      reply: ProviderReply,
      urls: ServiceUrls
    ) => Effect.Effect<ProviderAnswer, SsoRefused | IdpUnavailable>
    /** Roster's SP metadata for a SAML connection: its entity id, its ACS URL, its signing certificate. */
    readonly serviceProviderMetadata: (
      connection: SsoConnectionRecord,
      key: Redacted.Redacted<string>,
      urls: ServiceUrls
    ) => Effect.Effect<string>
  }
>()("roster/core/ports/IdentityProviders") {}
