import { DateTime, Duration, Effect, Option } from "effect"
import { changesBetween } from "../../model/audit.ts"
import { AlreadyMember, UnknownRole } from "../../model/errors.ts"
import type { InvitationId } from "../../model/ids.ts"
import {
  Invitation,
  invitationAuditFields,
  type NewInvitation,
  toInvitationView
} from "../../model/invitation.ts"
import { normalizeEmail } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { requirePermission } from "../../policy/access.ts"
import { requireWithinCeiling } from "../../policy/ceiling.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { InvitationMail } from "../../ports/invitation-mail.ts"
import { InvitationStore } from "../../ports/invitation-store.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { currentOrganization } from "../../steps/organizations/current-organization.ts"

const defaultInvitationTtl = Duration.days(7)

/** Whether the e-mail's account, if there is one, is a member of the current organisation already. */
const isMemberHere = Effect.fnUntraced(function* (email: string) {
  const members = yield* MemberStore
  const account = yield* members.findByLogin(email)
  if (Option.isNone(account)) return false
  return Option.isSome(yield* members.findById(account.value.id))
})

/**
 * Replacing a pending invitation revokes it: the caller's ceiling must cover its role too, or
 * re-inviting into a lower role would revoke what they may not.
 */
const requireMayReplace = Effect.fnUntraced(function* (actor: Principal, email: string, now: DateTime.Utc) {
  const [pending] = yield* (yield* InvitationStore).page({ email, status: "pending", now }, 1)
  if (pending !== undefined) yield* requireWithinCeiling(actor, pending.roleId)
})

/** A message the mail server did not take: its invitation is revoked, so no unsent link stays valid. */
const revokeUnsent = Effect.fnUntraced(function* (actor: Principal, id: InvitationId) {
  const entry = yield* newAuditEntry(auditActorOf(actor), "invitation.revoked", { type: "invitation", id })
  yield* (yield* InvitationStore).revoke(id, entry)
})

/**
 * Invites an e-mail into a role of the caller's organisation, within the caller's ceiling; a pending
 * invitation for the same e-mail is replaced. The token is mailed when the deployment sends mail
 * (and a message the server refuses revokes the invitation); otherwise it is answered, once.
 */
export const inviteMember = Effect.fnUntraced(function* (actor: Principal, input: NewInvitation) {
  yield* requirePermission(actor, "team.members.write")
  if (Option.isNone(yield* (yield* RoleStore).findById(input.roleId))) {
    return yield* new UnknownRole({ roleId: input.roleId })
  }
  yield* requireWithinCeiling(actor, input.roleId)
  const email = normalizeEmail(input.email)
  if (yield* isMemberHere(email)) return yield* new AlreadyMember({ email })
  const now = yield* DateTime.now
  yield* requireMayReplace(actor, email, now)
  const { token, hash } = yield* (yield* TokenIssuer).issue("invitation")
  const ttl = (yield* AuthSettings).invitationTtl ?? defaultInvitationTtl
  const invitation = new Invitation({
    id: yield* (yield* IdGenerator).next("invitation"),
    organizationId: yield* CurrentOrganization,
    email,
    roleId: input.roleId,
    status: "pending",
    tokenHash: hash,
    expiresAt: DateTime.addDuration(now, ttl),
    createdAt: now
  })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "invitation.created",
    { type: "invitation", id: invitation.id },
    // The record holds JSON values: the instant as its ISO text.
    changesBetween(
      null,
      { ...invitation, expiresAt: DateTime.formatIso(invitation.expiresAt) },
      invitationAuditFields
    )
  )
  const store = yield* InvitationStore
  yield* store.replace(invitation, entry)
  const view = toInvitationView(invitation, now)
  const mail = yield* InvitationMail
  if (!mail.delivers) return { invitation: view, token: Option.some(token) }
  const organization = yield* currentOrganization
  yield* mail
    .send({ to: email, organization, token, expiresAt: invitation.expiresAt })
    .pipe(Effect.tapError(() => revokeUnsent(actor, invitation.id)))
  return { invitation: view, token: Option.none() }
})
