import { DateTime, Effect, Option, Schema } from "effect"
import { Email, normalizeEmail } from "../../model/member.ts"
import type { SsoConnectionRecord } from "../../model/sso-connection.ts"
import { domainOfEmail } from "../../model/sso-domain.ts"
import { SsoAccountConflict, SsoRefused } from "../../model/sso-errors.ts"
import { type ProvenIdentity, SsoIdentity } from "../../model/sso-login.ts"
import { requireTrusted } from "../../policy/connection-trust.ts"
import { DomainStore } from "../../ports/domain-store.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { ProvisioningStore } from "../../ports/provisioning-store.ts"
import { SsoLoginStore } from "../../ports/sso-login-store.ts"
import { joinJustInTime } from "./join-just-in-time.ts"

const isEmail = Schema.is(Email)

/** Whether the organisation (the current one, the connection's) holds the e-mail's domain verified. */
const domainVerifiedHere = Effect.fnUntraced(function* (connection: SsoConnectionRecord, email: string) {
  const held = yield* (yield* DomainStore).findVerified(domainOfEmail(email))
  return Option.isSome(held) && held.value.organizationId === connection.organizationId
})

/** A member an identity provider provisioned here by SCIM: by its `externalId`, or by its e-mail. */
const provisionedHere = Effect.fnUntraced(function* (proven: ProvenIdentity, email: string | undefined) {
  const profiles = yield* ProvisioningStore
  const members = yield* MemberStore
  const byExternalId = (yield* profiles.users).find((profile) => profile.externalId === proven.subject)
  if (byExternalId !== undefined) return yield* members.findById(byExternalId.memberId)
  if (email === undefined) return Option.none()
  const account = yield* members.findByLogin(email)
  if (Option.isNone(account)) return Option.none()
  if (Option.isNone(yield* profiles.findUser(account.value.id))) return yield* new SsoAccountConflict()
  return yield* members.findById(account.value.id)
})

/**
 * Who signs in, in the connection's organisation (the current one): the account linked to the
 * identity (connection, subject); else a member provisioned here by SCIM with its `externalId` or
 * e-mail, linked now; else, for an e-mail in a domain the organisation verified, a member made just
 * in time (`joined`), each in a role within the connection's `trustCeiling`. An account with the
 * e-mail that was not provisioned here is never linked by e-mail (`SsoAccountConflict`); anyone else
 * is refused.
 */
export const memberSigningIn = Effect.fnUntraced(function* (
  connection: SsoConnectionRecord,
  proven: ProvenIdentity
) {
  const logins = yield* SsoLoginStore
  const members = yield* MemberStore
  // What a provider asserts that is no address is none.
  // Stryker disable next-line ConditionalExpression: `isEmail` refuses null too; the first check narrows the type
  const email = proven.email !== null && isEmail(proven.email) ? normalizeEmail(proven.email) : undefined
  const linked = yield* logins.findIdentity(connection.id, proven.subject)
  if (Option.isSome(linked)) {
    const member = yield* members.findById(linked.value.accountId)
    if (Option.isSome(member)) return { member: member.value, joined: false }
    const account = yield* members.findAccount(linked.value.accountId)
    if (Option.isSome(account) && (yield* domainVerifiedHere(connection, account.value.email))) {
      return { member: yield* joinJustInTime(connection, account.value.email, account), joined: true }
    }
    return yield* new SsoRefused({ reason: "foreign_domain" })
  }
  const provisioned = yield* provisionedHere(proven, email)
  const link = Effect.fnUntraced(function* (accountId: SsoIdentity["accountId"]) {
    const identity = new SsoIdentity({
      connectionId: connection.id,
      subject: proven.subject,
      accountId,
      organizationId: connection.organizationId,
      createdAt: yield* DateTime.now
    })
    // Another sign-in linked the identity to another account meanwhile: that link stays.
    if (!(yield* logins.link(identity))) return yield* new SsoAccountConflict({ linkedToAnother: true })
  })
  if (Option.isSome(provisioned)) {
    yield* requireTrusted(connection, provisioned.value.roleId)
    yield* link(provisioned.value.id)
    return { member: provisioned.value, joined: false }
  }
  if (email === undefined) return yield* new SsoRefused({ reason: "no_email" })
  if (!(yield* domainVerifiedHere(connection, email)))
    return yield* new SsoRefused({ reason: "foreign_domain" })
  const member = yield* joinJustInTime(connection, email, Option.none())
  yield* link(member.id)
  return { member, joined: true }
})
