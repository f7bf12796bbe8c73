import { DateTime, Effect } from "effect"
import { changesBetween } from "../../model/audit.ts"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import {
  type CreateSsoConnectionInput,
  connectionAuditFields,
  readySaml,
  SsoConnectionRecord
} from "../../model/sso-connection.ts"
import { requirePermission } from "../../policy/access.ts"
import { trustCeilingOf } from "../../policy/connection-trust.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { SsoConnectionStore } from "../../ports/sso-connection-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { oidcSettings, samlProviderIfNamed, samlSettings } from "../../steps/sso/connection-settings.ts"
import { auditedConnection, connectionView } from "../../steps/sso/connection-view.ts"
import { requireSealing } from "../../steps/sso/require-sealing.ts"

/**
 * Connects the organisation to an identity provider, enabled: OIDC (its issuer's discovery read
 * now, so a wrong one is refused) or SAML (from the IdP's metadata, or its entity id, sign-in URL
 * and certificate), with an SP key of its own. Its secrets are sealed, never answered. It lets in no
 * one above what its maker holds (`trustCeiling`). A SAML connection named without its IdP is a
 * draft: its SP values answered now, for the IdP's administrator, who hands over the IdP's later.
 */
export const createSsoConnection = Effect.fnUntraced(function* (
  actor: Principal,
  input: CreateSsoConnectionInput
) {
  yield* requirePermission(actor, "organization.sso.write")
  yield* requireSealing
  const now = yield* DateTime.now
  const saml = input.kind === "saml" ? yield* samlSettings(yield* samlProviderIfNamed(input)) : null
  const record = new SsoConnectionRecord({
    id: yield* (yield* IdGenerator).next("ssoConnection"),
    organizationId: yield* CurrentOrganization,
    kind: input.kind,
    name: input.name ?? (input.kind === "oidc" ? "OpenID Connect" : "SAML"),
    status: saml !== null && readySaml(saml) === null ? "draft" : "enabled",
    createdAt: now,
    updatedAt: now,
    oidc: input.kind === "oidc" ? yield* oidcSettings(input) : null,
    saml,
    trustCeiling: trustCeilingOf(actor)
  })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "sso.connection.created",
    { type: "sso_connection", id: record.id },
    changesBetween(null, auditedConnection(record), ["kind", ...connectionAuditFields])
  )
  yield* (yield* SsoConnectionStore).insert(record, entry)
  return yield* connectionView(record)
})
