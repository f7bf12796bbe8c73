import { Effect, Layer } from "effect"
import { IdentityProviders, readySaml, type SsoConnectionRecord, SsoRefused } from "../../core/index.ts"
import { newServiceProviderKey, readCertificate } from "./certificates.ts"
import { checkIssuer, oidcAnswer, oidcSignInUrl } from "./oidc.ts"
import { checkProviderUrl } from "./provider-urls.ts"
import { samlAnswer, samlMetadata, samlSignInUrl } from "./saml.ts"
import { readMetadata } from "./saml-metadata.ts"

export interface IdentityProviderOptions {
  /** Whether plain http is accepted off loopback (`ROSTER_WEBHOOK_ALLOW_PRIVATE=on`). */
  readonly allowHttp?: boolean
}

/** The protocol a connection signs in by; a draft signs nobody in, so one asked to is a bug. */
const protocolOf = (connection: SsoConnectionRecord) => {
  if (connection.oidc !== null) return { kind: "oidc" as const, oidc: connection.oidc }
  const saml = readySaml(connection.saml)
  if (saml !== null) return { kind: "saml" as const, saml }
  throw new Error(`connection ${connection.id} has neither OIDC nor a SAML IdP`)
}

/** OIDC by `openid-client`, SAML 2.0 by `@node-saml/node-saml`. */
export const identityProvidersLayer = (options: IdentityProviderOptions = {}) => {
  const allowHttp = options.allowHttp === true
  return Layer.succeed(
    IdentityProviders,
    IdentityProviders.of({
      checkIssuer: (issuer) =>
        Effect.andThen(checkProviderUrl(issuer, "issuer", allowHttp), checkIssuer(issuer)),
      readMetadata,
      readCertificate,
      checkProviderUrl: (url, field) => checkProviderUrl(url, field, allowHttp),
      newServiceProviderKey,
      signInUrl: (connection, secret, state, urls) => {
        const protocol = protocolOf(connection)
        return protocol.kind === "oidc"
          ? oidcSignInUrl(connection, protocol.oidc, secret, state, urls)
          : samlSignInUrl(connection, protocol.saml, secret, state, urls)
      },
      readReply: (connection, secret, state, reply, urls) => {
        const protocol = protocolOf(connection)
        if (protocol.kind === "oidc" && reply.kind === "oidc") {
          return oidcAnswer(connection, protocol.oidc, secret, state, reply.callbackUrl)
        }
        if (protocol.kind === "saml" && reply.kind === "saml") {
          return samlAnswer(connection, protocol.saml, secret, state, reply.samlResponse, urls)
        }
        // An OIDC callback for a SAML connection, or a SAML response for an OIDC one.
        return Effect.fail(new SsoRefused({ reason: "answer" }))
      },
      serviceProviderMetadata: (connection, key, urls) =>
        connection.saml === null ? Effect.succeed("") : samlMetadata(connection, connection.saml, key, urls)
    })
  )
}
