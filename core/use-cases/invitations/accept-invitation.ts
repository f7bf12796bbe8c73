import { DateTime, Effect, Option, type Redacted } from "effect"
import { NewMember } from "../../model/account.ts"
import { changesBetween } from "../../model/audit.ts"
import { Forbidden, InvitationInvalid, MissingField } from "../../model/errors.ts"
import { type AcceptInvitationInput, type Invitation, statusAt } from "../../model/invitation.ts"
import { MemberRecord, memberAuditFields, toMember } from "../../model/member.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { byPassword } from "../../model/session.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { InvitationMail } from "../../ports/invitation-mail.ts"
import { InvitationStore } from "../../ports/invitation-store.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { PasswordHasher } from "../../ports/password-hasher.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { startSession } from "../../steps/auth/start-session.ts"
import { seatsAfterMemberChange } from "../../steps/billing/sync-seats.ts"
import { proveAccount } from "../../steps/invitations/prove-account.ts"
import { currentOrganization } from "../../steps/organizations/current-organization.ts"
import { requirePasswordAllowed } from "../../steps/sso/require-password-allowed.ts"

/** The member the invitation makes: a new account, or the existing one's new membership. */
const membershipFor = Effect.fnUntraced(function* (
  invitation: Invitation,
  bearer: Option.Option<Redacted.Redacted<string>>,
  input: AcceptInvitationInput
) {
  const members = yield* MemberStore
  const now = yield* DateTime.now
  const account = yield* members.findByLogin(invitation.email)
  const membership = {
    organizationId: invitation.organizationId,
    email: invitation.email,
    activestatus: true,
    roleId: invitation.roleId,
    sessionEpoch: 0,
    createdAt: now
  }
  if (Option.isSome(account)) {
    const proven = yield* proveAccount(account.value, bearer, input.password, input.client, input.code)
    if (!account.value.accountActiveStatus) return yield* new Forbidden({ reason: "inactive" })
    const { id, username, emailVerified, accountActiveStatus } = account.value
    return {
      existing: true as const,
      proof: proven.proof,
      byPassword: proven.by === "password",
      member: new MemberRecord({ ...membership, id, username, emailVerified, accountActiveStatus })
    }
  }
  if (input.username === undefined)
    return yield* new MissingField({ field: "username", purpose: "new_account" })
  if (input.password === undefined)
    return yield* new MissingField({ field: "password", purpose: "new_account" })
  return {
    existing: false as const,
    proof: byPassword,
    byPassword: true,
    member: new NewMember({
      ...membership,
      id: yield* (yield* IdGenerator).next("member"),
      username: input.username,
      // The token was mailed to the address, and its creator never saw it: it proves the address.
      emailVerified: (yield* InvitationMail).delivers,
      accountActiveStatus: true,
      passwordHash: yield* (yield* PasswordHasher).hash(input.password)
    })
  }
})

/**
 * Accepts an invitation: its holder becomes a member of the inviting organisation in the invited
 * role (a new account, or a new membership of theirs) and is signed in there. An invitation this
 * deployment mailed proves the address it went to: the account's e-mail is verified. The membership is made
 * first and the invitation then claimed: of two acceptances at once, the one that loses the claim
 * takes its membership back. An unknown, used, revoked or expired token is one answer.
 */
export const acceptInvitation = Effect.fnUntraced(function* (
  bearer: Option.Option<Redacted.Redacted<string>>,
  input: AcceptInvitationInput
) {
  const tokenHash = yield* (yield* TokenIssuer).hashOf(input.token)
  const store = yield* InvitationStore
  const found = yield* store.findByTokenHash(tokenHash)
  if (Option.isNone(found) || statusAt(found.value, yield* DateTime.now) !== "pending") {
    return yield* new InvitationInvalid()
  }
  const invitation = found.value
  // A recovery code used to prove the account is recorded in the organisation it joins.
  const made = yield* membershipFor(invitation, bearer, input).pipe(
    Effect.provideService(CurrentOrganization, invitation.organizationId)
  )
  const member: MemberRecord = made.member
  const actor = { kind: "member" as const, id: member.id }
  return yield* Effect.gen(function* () {
    // Joining by password is what single sign-on, where the organisation requires it, replaces.
    if (made.byPassword) {
      yield* requirePasswordAllowed(member, yield* currentOrganization)
    }
    const members = yield* MemberStore
    const added = yield* newAuditEntry(
      actor,
      "member.added",
      { type: "member", id: member.id },
      changesBetween(null, toMember(member), memberAuditFields)
    )
    if (made.existing) {
      yield* (yield* SessionStore).revokeMembership(member.id)
      // The account removed meanwhile: what the invitation was for is gone.
      if (!(yield* members.join(made.member, added))) return yield* new InvitationInvalid()
    } else {
      yield* members.insert(made.member, added)
    }
    const accepted = yield* newAuditEntry(actor, "invitation.accepted", {
      type: "invitation",
      id: invitation.id
    })
    const claimed = yield* store.claim(tokenHash, yield* DateTime.now, accepted)
    if (Option.isNone(claimed)) {
      const undone = yield* newAuditEntry(
        actor,
        "member.removed",
        { type: "member", id: member.id },
        changesBetween(toMember(member), null, memberAuditFields)
      )
      yield* members.remove(member.id, undone)
      return yield* new InvitationInvalid()
    }
    if (made.existing && !member.emailVerified && (yield* InvitationMail).delivers) {
      const verified = yield* newAuditEntry(actor, "email.verified", { type: "member", id: member.id })
      yield* members.verifyEmail(member.id, invitation.email, verified)
    }
    yield* seatsAfterMemberChange(undefined, member)
    const joined = Option.getOrElse(yield* members.findById(member.id), () => member)
    return yield* startSession(joined, yield* currentOrganization, made.proof)
  }).pipe(
    // The role or the organisation the invitation was for is gone: it is worth nothing.
    Effect.catchTags({
      UnknownRole: () => Effect.fail(new InvitationInvalid()),
      NotFound: () => Effect.fail(new InvitationInvalid())
    }),
    Effect.provideService(CurrentOrganization, invitation.organizationId)
  )
})
