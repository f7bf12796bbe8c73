import { DateTime, Effect, Option } from "effect"
import { changesBetween } from "../../model/audit.ts"
import { NotFound } from "../../model/errors.ts"
import type { SsoConnectionId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import {
  SsoConnectionRecord as Connection,
  connectionAuditFields,
  type SsoConnectionRecord,
  type UpdateSsoConnectionInput
} from "../../model/sso-connection.ts"
import { ConnectionInvalid, IdpIncomplete } from "../../model/sso-errors.ts"
import { requireCoversLinked, trustCeilingOf } from "../../policy/connection-trust.ts"
import { IdentityProviders } from "../../ports/identity-providers.ts"
import { SecretBox } from "../../ports/secret-box.ts"
import { SsoConnectionStore } from "../../ports/sso-connection-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { samlProviderOf, scopesOf } from "../../steps/sso/connection-settings.ts"
import { auditedConnection, connectionView } from "../../steps/sso/connection-view.ts"
import { findConnection } from "../../steps/sso/get-sso-connection.ts"
import { requireSealing } from "../../steps/sso/require-sealing.ts"

const oidcFields = ["clientId", "clientSecret", "scopes"] as const
/** A SAML IdP by hand: a draft's are set together, or by its metadata. */
const idpFields = ["idpEntityId", "idpSsoUrl", "idpCertificate"] as const
const samlFields = ["idpMetadataXml", ...idpFields] as const
/** What says whom the connection believes: its client at the issuer, its IdP and the IdP's certificate. */
const trustFields = ["clientId", ...samlFields] as const

/** Refuses a field of the other protocol: a SAML connection has no client id, say. */
const requireOwnFields = (connection: SsoConnectionRecord, input: UpdateSsoConnectionInput) => {
  const foreign = (connection.kind === "oidc" ? samlFields : oidcFields).find(
    (field) => input[field] !== undefined
  )
  return foreign === undefined
    ? Effect.void
    : Effect.fail(
        new ConnectionInvalid({
          field: foreign,
          message: `An ${connection.kind === "oidc" ? "OIDC" : "SAML"} connection has no ${foreign}`
        })
      )
}

/**
 * A draft's IdP is set whole or not at all: a part of it would be a connection that cannot sign in
 * yet looks ready. Enabling or disabling a draft is setting its IdP, so it needs the whole too.
 */
const requireWholeIdp = (connection: SsoConnectionRecord, input: UpdateSsoConnectionInput) => {
  if (connection.status !== "draft" || input.idpMetadataXml !== undefined) return Effect.void
  const missing = idpFields.filter((field) => input[field] === undefined)
  const untouched = missing.length === idpFields.length && input.status === undefined
  return missing.length === 0 || untouched ? Effect.void : Effect.fail(new IdpIncomplete({ missing }))
}

const changedOidc = Effect.fnUntraced(function* (
  connection: SsoConnectionRecord,
  input: UpdateSsoConnectionInput
) {
  const oidc = connection.oidc
  if (oidc === null) return null
  if (input.clientSecret !== undefined) yield* requireSealing
  return {
    ...oidc,
    ...(input.clientId === undefined ? {} : { clientId: input.clientId }),
    ...(input.scopes === undefined ? {} : { scopes: scopesOf(input.scopes) }),
    ...(input.clientSecret === undefined
      ? {}
      : { clientSecret: yield* (yield* SecretBox).seal(input.clientSecret) })
  }
})

const changedSaml = Effect.fnUntraced(function* (
  connection: SsoConnectionRecord,
  input: UpdateSsoConnectionInput
) {
  const saml = connection.saml
  if (saml === null) return null
  const providers = yield* IdentityProviders
  if (input.idpMetadataXml !== undefined) {
    const provider = yield* samlProviderOf({ idpMetadataXml: input.idpMetadataXml })
    return {
      ...saml,
      idpEntityId: provider.entityId,
      idpSsoUrl: provider.ssoUrl,
      idpCertificates: provider.certificates
    }
  }
  if (input.idpSsoUrl !== undefined) yield* providers.checkProviderUrl(input.idpSsoUrl, "idpSsoUrl")
  return {
    ...saml,
    ...(input.idpEntityId === undefined ? {} : { idpEntityId: input.idpEntityId }),
    ...(input.idpSsoUrl === undefined ? {} : { idpSsoUrl: input.idpSsoUrl }),
    ...(input.idpCertificate === undefined
      ? {}
      : { idpCertificates: [yield* providers.readCertificate(input.idpCertificate, "idpCertificate")] })
  }
})

/**
 * Renames a connection, enables or disables it (a disabled one signs nobody in), or changes its
 * provider's settings: a new client secret is sealed, new metadata read as when it was made. A
 * change of what it trusts (its client, IdP or certificate) hands the new IdP every account linked
 * through it: only for a caller whose permissions cover each such member's role, and the caller's
 * permissions are from then on what it lets in. A draft's IdP, set whole, enables it.
 */
export const updateSsoConnection = Effect.fnUntraced(function* (
  actor: Principal,
  id: SsoConnectionId,
  input: UpdateSsoConnectionInput
) {
  const connection = yield* findConnection(actor, id)
  yield* requireOwnFields(connection, input)
  yield* requireWholeIdp(connection, input)
  const trusting = trustFields.some((field) => input[field] !== undefined)
  if (trusting) yield* requireCoversLinked(actor, connection)
  const changed = new Connection({
    ...connection,
    ...(trusting ? { trustCeiling: trustCeilingOf(actor) } : {}),
    ...(input.name === undefined ? {} : { name: input.name }),
    status: input.status ?? (connection.status === "draft" && trusting ? "enabled" : connection.status),
    oidc: yield* changedOidc(connection, input),
    saml: yield* changedSaml(connection, input),
    updatedAt: yield* DateTime.now
  })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "sso.connection.updated",
    { type: "sso_connection", id },
    {
      ...changesBetween(auditedConnection(connection), auditedConnection(changed), connectionAuditFields),
      // A new secret is recorded as changed, never its value.
      ...(input.clientSecret === undefined ? {} : { clientSecret: ["(sealed)", "(sealed)"] })
    }
  )
  const written = yield* (yield* SsoConnectionStore).replace(changed, entry)
  if (Option.isNone(written)) return yield* new NotFound({ entity: "sso_connection", id })
  return yield* connectionView(written.value)
})
