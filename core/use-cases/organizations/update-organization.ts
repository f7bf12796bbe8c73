import { Effect, Option } from "effect"
import { changesBetween } from "../../model/audit.ts"
import { NotFound, UnknownRole } from "../../model/errors.ts"
import { type OrganizationChanges, organizationAuditFields } from "../../model/organization.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { requireHeldWithinCeiling } from "../../policy/ceiling.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { RoleLookup } from "../../ports/role-lookup.ts"
import { auditActorOf, auditEntryOfChanges } from "../../steps/audit/new-audit-entry.ts"
import { applyMfaPolicy } from "../../steps/mfa/sessions-under-policy.ts"
import { currentOrganization } from "../../steps/organizations/current-organization.ts"
import { applySsoPolicy } from "../../steps/sso/apply-sso-policy.ts"

/**
 * Renames the caller's organisation, sets its default role (one of its own roles, within what the
 * caller holds) or whether it requires a second factor, which applies at once to the sessions of its
 * members without TOTP; or single sign-on, which ends at once the sessions no SSO sign-in made of the
 * members it now holds to it.
 */
export const updateOrganization = Effect.fnUntraced(function* (
  actor: Principal,
  changes: OrganizationChanges
) {
  yield* requirePermission(actor, "organization.write")
  // Holding members to single sign-on is the identity provider's settings' to decide.
  if (changes.ssoRequired !== undefined) yield* requirePermission(actor, "organization.sso.write")
  const current = yield* currentOrganization
  if (changes.defaultRoleId !== undefined) {
    const role = yield* (yield* RoleLookup).find(changes.defaultRoleId)
    if (Option.isNone(role)) return yield* new UnknownRole({ roleId: changes.defaultRoleId })
    // Identity providers put members in it: nobody names a role above their own for them to fill.
    yield* requireHeldWithinCeiling(actor, role.value.permissionIds)
  }
  const entry = yield* auditEntryOfChanges(
    auditActorOf(actor),
    "organization.updated",
    { type: "organization", id: current.id },
    changesBetween(current, { ...current, ...changes }, organizationAuditFields)
  )
  const updated = yield* (yield* OrganizationStore).update(current.id, changes, entry)
  if (Option.isNone(updated)) return yield* new NotFound({ entity: "organization", id: current.id })
  const required = updated.value.requireMfa === true
  // Stryker disable next-line ConditionalExpression,LogicalOperator: applying the policy it had again changes no session; this spares the sweep
  if (changes.requireMfa !== undefined && required !== (current.requireMfa === true)) {
    yield* applyMfaPolicy(current.id, required)
  }
  if (changes.ssoRequired === true && current.ssoRequired !== true) yield* applySsoPolicy(updated.value)
  return updated.value
})
