import { Effect, type Redacted } from "effect"
import { defaultScopes, type OidcSettings, type SamlSettings } from "../../model/sso-connection.ts"
import { ConnectionInvalid } from "../../model/sso-errors.ts"
import { IdentityProviders, type SamlProvider } from "../../ports/identity-providers.ts"
import { SecretBox } from "../../ports/secret-box.ts"

/** The scopes asked for: those named (`openid` always among them), else the default ones. */
export const scopesOf = (named: ReadonlyArray<string> | undefined) =>
  named === undefined ? defaultScopes : named.includes("openid") ? [...named] : ["openid", ...named]

/** An OIDC connection's settings, its issuer's discovery document read, its secret sealed. */
export const oidcSettings = Effect.fnUntraced(function* (input: {
  readonly issuer: string
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly scopes?: ReadonlyArray<string>
}) {
  yield* (yield* IdentityProviders).checkIssuer(input.issuer)
  const settings: OidcSettings = {
    issuer: input.issuer,
    clientId: input.clientId,
    clientSecret: yield* (yield* SecretBox).seal(input.clientSecret),
    scopes: scopesOf(input.scopes)
  }
  return settings
})

/** The IdP a SAML connection names: by its metadata, or by its three values. */
export const samlProviderOf = Effect.fnUntraced(function* (
  input:
    | { readonly idpMetadataXml: string }
    | { readonly idpEntityId: string; readonly idpSsoUrl: string; readonly idpCertificate: string }
) {
  const providers = yield* IdentityProviders
  const provider: SamlProvider =
    "idpMetadataXml" in input
      ? yield* providers.readMetadata(input.idpMetadataXml)
      : {
          entityId: input.idpEntityId,
          ssoUrl: input.idpSsoUrl,
          certificates: [yield* providers.readCertificate(input.idpCertificate, "idpCertificate")]
        }
  yield* providers.checkProviderUrl(
    provider.ssoUrl,
    "idpMetadataXml" in input ? "idpMetadataXml" : "idpSsoUrl"
  )
  if (provider.certificates.length === 0) {
    return yield* new ConnectionInvalid({
      field: "idpMetadataXml",
      message: "The metadata names no signing certificate"
    })
  }
  return provider
})

/** The IdP a new SAML connection names, or none: a draft's comes later. */
export const samlProviderIfNamed = (
  input:
    | { readonly idpMetadataXml: string }
    | { readonly idpEntityId: string; readonly idpSsoUrl: string; readonly idpCertificate: string }
    | { readonly kind: "saml" }
) => ("idpMetadataXml" in input || "idpEntityId" in input ? samlProviderOf(input) : Effect.succeed(null))

/** A SAML connection's settings with its IdP, or a draft's without (null). */
const withProvider = (saml: SamlSettings, provider: SamlProvider | null): SamlSettings => ({
  ...saml,
  idpEntityId: provider?.entityId ?? null,
  idpSsoUrl: provider?.ssoUrl ?? null,
  idpCertificates: provider?.certificates ?? []
})

/** A new SAML connection's settings: the IdP (none for a draft), and an SP key of its own, sealed. */
export const samlSettings = Effect.fnUntraced(function* (provider: SamlProvider | null) {
  const key = yield* (yield* IdentityProviders).newServiceProviderKey
  const draft: SamlSettings = {
    idpEntityId: null,
    idpSsoUrl: null,
    idpCertificates: [],
    spPrivateKey: yield* (yield* SecretBox).seal(key.privateKey),
    spCertificate: key.certificate
  }
  return withProvider(draft, provider)
})
