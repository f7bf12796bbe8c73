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

/** A new SAML connection's settings: the IdP, and an SP key of its own, sealed. */
export const samlSettings = Effect.fnUntraced(function* (provider: SamlProvider) {
  const key = yield* (yield* IdentityProviders).newServiceProviderKey
  const settings: SamlSettings = {
    idpEntityId: provider.entityId,
    idpSsoUrl: provider.ssoUrl,
    idpCertificates: provider.certificates,
    spPrivateKey: yield* (yield* SecretBox).seal(key.privateKey),
    spCertificate: key.certificate
  }
  return settings
})
