import { Schema } from "effect"
import { OrganizationId, PermissionId, SsoConnectionId } from "./ids.ts"
import { SealedSecret } from "./mfa.ts"
import { cursorOf } from "./page.ts"
import { isDisplayable } from "./text.ts"

declare const URL: new (
  input: string
) => {
  readonly protocol: string
  readonly hostname: string
  readonly username: string
  readonly hash: string
}

/** An http(s) URL without credentials or a fragment: an issuer, an IdP's sign-in address. */
export const ProviderUrl = Schema.String.check(
  Schema.isBetweenLength(1, 2048),
  Schema.makeFilter((text) => {
    try {
      const url = new URL(text)
      return (
        ((url.protocol === "https:" || url.protocol === "http:") && url.username === "" && url.hash === "") ||
        "Expected an http(s) URL without credentials or a fragment"
      )
    } catch {
      return "Expected an http(s) URL"
    }
  })
)

export const ConnectionName = Schema.String.check(
  Schema.isTrimmed(),
  Schema.isBetweenLength(1, 100),
  isDisplayable
)

/** An OAuth scope token (RFC 6749 §3.3). */
const Scope = Schema.String.check(Schema.isPattern(/^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/u))
export const Scopes = Schema.Array(Scope).check(Schema.isMaxLength(20))

const ClientSecret = Schema.RedactedFromValue(Schema.String.check(Schema.isBetweenLength(1, 1024)))

export const SsoKind = Schema.Literals(["oidc", "saml"])
export type SsoKind = typeof SsoKind.Type
/** A `draft` SAML connection has Roster's SP values and no IdP yet: it signs nobody in. */
export const SsoStatus = Schema.Literals(["draft", "enabled", "disabled"])
export type SsoStatus = typeof SsoStatus.Type
/** What a change may set: a connection becomes a draft only when made one. */
export const SettableSsoStatus = Schema.Literals(["enabled", "disabled"])

/** What an OIDC connection keeps: the issuer it discovers, and the client Roster is there. */
export const OidcSettings = Schema.Struct({
  issuer: Schema.String,
  clientId: Schema.String,
  clientSecret: SealedSecret,
  scopes: Schema.Array(Schema.String)
})
export type OidcSettings = typeof OidcSettings.Type

/**
 * What a SAML connection keeps: the IdP (its entity id, its sign-in address, its signing
 * certificates as base64 DER) and Roster's own SP key, sealed, with its certificate. A draft has
 * the SP key and no IdP yet (`null`s, no certificate): its IdP's administrator needs the SP values
 * before they hand over the IdP's.
 */
export const SamlSettings = Schema.Struct({
  idpEntityId: Schema.NullOr(Schema.String),
  idpSsoUrl: Schema.NullOr(Schema.String),
  idpCertificates: Schema.Array(Schema.String),
  spPrivateKey: SealedSecret,
  spCertificate: Schema.String
})
export type SamlSettings = typeof SamlSettings.Type
/** A SAML connection's settings once its IdP is set: what signs people in. */
export type ReadySamlSettings = SamlSettings & { readonly idpEntityId: string; readonly idpSsoUrl: string }

/** The settings of a SAML connection whose IdP is set, else none (a draft). */
export const readySaml = (saml: SamlSettings | null): ReadySamlSettings | null =>
  saml !== null && saml.idpEntityId !== null && saml.idpSsoUrl !== null
    ? { ...saml, idpEntityId: saml.idpEntityId, idpSsoUrl: saml.idpSsoUrl }
    : null

/**
 * An organisation's connection to an identity provider, as kept; exactly one of `oidc` and `saml` is
 * set. `trustCeiling` is what whoever last set what it trusts (made it, or changed its issuer,
 * client, IdP or certificate) held: it links a provisioned member, or makes one just in time, only
 * in a role within it. None (`null`) when that was the operator or an owner, above every role.
 */
export class SsoConnectionRecord extends Schema.Class<SsoConnectionRecord>("roster/SsoConnectionRecord")({
  id: SsoConnectionId,
  organizationId: OrganizationId,
  kind: SsoKind,
  name: Schema.String,
  status: SsoStatus,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc,
  oidc: Schema.NullOr(OidcSettings),
  saml: Schema.NullOr(SamlSettings),
  trustCeiling: Schema.NullOr(Schema.Array(PermissionId))
}) {}

/**
 * A connection as answered: never the client secret nor the SP key; with what the IdP's
 * administrator copies (Roster's SP entity id, its ACS URL, its OIDC redirect URI, its certificate).
 */
export const SsoConnection = Schema.Struct({
  id: SsoConnectionId,
  kind: SsoKind,
  name: Schema.String,
  status: SsoStatus,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc,
  issuer: Schema.optionalKey(Schema.String),
  clientId: Schema.optionalKey(Schema.String),
  scopes: Schema.optionalKey(Schema.Array(Schema.String)),
  idpEntityId: Schema.optionalKey(Schema.String),
  idpSsoUrl: Schema.optionalKey(Schema.String),
  spEntityId: Schema.String,
  acsUrl: Schema.String,
  redirectUri: Schema.String,
  spMetadataUrl: Schema.String,
  spCertificate: Schema.optionalKey(Schema.String)
})
export type SsoConnection = typeof SsoConnection.Type

const named = { name: Schema.optionalKey(ConnectionName) }

export const NewOidcConnection = Schema.Struct({
  kind: Schema.Literal("oidc"),
  ...named,
  issuer: ProviderUrl,
  clientId: Schema.String.check(Schema.isBetweenLength(1, 512), Schema.isTrimmed()),
  clientSecret: ClientSecret,
  scopes: Schema.optionalKey(Scopes)
})

/**
 * One IdP's metadata (a federation's aggregate is not one IdP's): 150,000 characters hold a
 * metadata document with several signing certificates many times over, and stay, in any encoding,
 * inside the request body limit, so that a longer one is told it is too long.
 */
export const IdpMetadataXml = Schema.String.check(Schema.isBetweenLength(1, 150_000))

export const IdpEntityId = Schema.String.check(Schema.isBetweenLength(1, 1024), Schema.isTrimmed())

/** An IdP certificate: PEM, or bare base64 DER. */
export const IdpCertificate = Schema.String.check(Schema.isBetweenLength(1, 20_000))

export const NewSamlConnectionFromMetadata = Schema.Struct({
  kind: Schema.Literal("saml"),
  ...named,
  idpMetadataXml: IdpMetadataXml
})

export const NewSamlConnection = Schema.Struct({
  kind: Schema.Literal("saml"),
  ...named,
  idpEntityId: IdpEntityId,
  idpSsoUrl: ProviderUrl,
  idpCertificate: IdpCertificate
})

/** A SAML connection without its IdP: a draft, for its SP values to be copied into the IdP first. */
export const NewSamlDraft = Schema.Struct({
  kind: Schema.Literal("saml"),
  ...named
})

export const CreateSsoConnectionInput = Schema.Union([
  NewOidcConnection,
  NewSamlConnectionFromMetadata,
  NewSamlConnection,
  NewSamlDraft
])
export type CreateSsoConnectionInput = typeof CreateSsoConnectionInput.Type

/**
 * What a change may set: its name, whether it signs people in, and its provider's settings. A
 * draft's IdP is set whole: its metadata, or its entity id, sign-in URL and certificate together.
 */
export const UpdateSsoConnectionInput = Schema.Struct({
  name: Schema.optionalKey(ConnectionName),
  status: Schema.optionalKey(SettableSsoStatus),
  clientId: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 512), Schema.isTrimmed())),
  clientSecret: Schema.optionalKey(ClientSecret),
  scopes: Schema.optionalKey(Scopes),
  idpMetadataXml: Schema.optionalKey(IdpMetadataXml),
  idpEntityId: Schema.optionalKey(IdpEntityId),
  idpSsoUrl: Schema.optionalKey(ProviderUrl),
  idpCertificate: Schema.optionalKey(IdpCertificate)
})
export type UpdateSsoConnectionInput = typeof UpdateSsoConnectionInput.Type

export const SsoConnectionPosition = Schema.Struct({
  createdAt: Schema.DateTimeUtcFromMillis,
  id: SsoConnectionId
})
export type SsoConnectionPosition = typeof SsoConnectionPosition.Type
export const SsoConnectionCursor = cursorOf(SsoConnectionPosition)

/** The OIDC scopes asked for when a connection names none. */
export const defaultScopes = ["openid", "email", "profile"]

/** The fields whose changes the audit record keeps (never a secret). */
export const connectionAuditFields = [
  "name",
  "status",
  "issuer",
  "clientId",
  "scopes",
  "idpEntityId",
  "idpSsoUrl"
]
