import { Effect } from "effect"
import { CurrentServiceUrls } from "../../model/request.ts"
import { readySaml, type SsoConnection, type SsoConnectionRecord } from "../../model/sso-connection.ts"
import { acsUrlOf, redirectUriOf, spEntityIdOf } from "../../model/sso-login.ts"
import { SecretBox } from "../../ports/secret-box.ts"

const pem = (der: string) =>
  // Stryker disable next-line OptionalChaining,StringLiteral: an SP certificate is never empty, so its lines are always found
  `-----BEGIN CERTIFICATE-----\n${der.match(/.{1,64}/gu)?.join("\n") ?? ""}\n-----END CERTIFICATE-----\n`

/** What the audit record and events say of a connection: its settings, never a secret (a draft's IdP: none yet). */
export const auditedConnection = (connection: SsoConnectionRecord) => {
  const saml = readySaml(connection.saml)
  return {
    kind: connection.kind,
    name: connection.name,
    status: connection.status,
    ...(connection.oidc === null
      ? {}
      : {
          issuer: connection.oidc.issuer,
          clientId: connection.oidc.clientId,
          scopes: connection.oidc.scopes
        }),
    ...(saml === null ? {} : { idpEntityId: saml.idpEntityId, idpSsoUrl: saml.idpSsoUrl })
  }
}

/** A connection as answered, with the values to copy into the IdP, for where Roster is reached. */
export const connectionView = (connection: SsoConnectionRecord) =>
  CurrentServiceUrls.useSync(
    (urls): SsoConnection => ({
      id: connection.id,
      createdAt: connection.createdAt,
      updatedAt: connection.updatedAt,
      ...auditedConnection(connection),
      spEntityId: spEntityIdOf(urls, connection.id),
      acsUrl: acsUrlOf(urls),
      redirectUri: redirectUriOf(urls),
      spMetadataUrl: spEntityIdOf(urls, connection.id),
      ...(connection.saml === null ? {} : { spCertificate: pem(connection.saml.spCertificate) })
    })
  )

/** The connection's secret, opened: OIDC's client secret, SAML's SP key. */
export const connectionSecret = (connection: SsoConnectionRecord) => {
  const sealed = connection.oidc?.clientSecret ?? connection.saml?.spPrivateKey
  // Every connection is made with one: a record without is a bug.
  if (sealed === undefined) return Effect.die(new Error(`connection ${connection.id} has no secret`))
  return SecretBox.use((box) => box.open(sealed))
}
