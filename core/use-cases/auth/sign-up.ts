import { DateTime, Effect, Option, Schema } from "effect"
import { changesBetween } from "../../model/audit.ts"
import { DuplicateOrganizationSlug, SignupClosed } from "../../model/errors.ts"
import { Email, memberAuditFields, normalizeEmail, Password, toMember, Username } from "../../model/member.ts"
import { NewOrganization, Organization } from "../../model/organization.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { byPassword } from "../../model/session.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { countSignup } from "../../steps/auth/count-signup.ts"
import { startSession } from "../../steps/auth/start-session.ts"
import { newOwnerAccount } from "../../steps/members/new-owner-account.ts"
import { requireLoginsFree } from "../../steps/members/require-logins-free.ts"
import { insertOrganization } from "../../steps/organizations/insert-organization.ts"

export const SignUpInput = Schema.Struct({
  username: Username,
  email: Email,
  password: Schema.RedactedFromValue(Password),
  organization: NewOrganization,
  /** Who is calling, for throttling (the client address behind the HTTP adapter). */
  client: Schema.String.check(Schema.isMaxLength(256))
})
export type SignUpInput = typeof SignUpInput.Type

/** Refuses what is taken before anything is written or hashed; the stores' unique indexes stay the guard. */
const requireFree = Effect.fnUntraced(function* (input: SignUpInput, email: string) {
  yield* requireLoginsFree(email, input.username)
  // Stryker disable next-line ConditionalExpression,BlockStatement: the store's unique index refuses the slug too; this spares the hash
  if (Option.isSome(yield* (yield* OrganizationStore).findByRef(input.organization.slug))) {
    return yield* new DuplicateOrganizationSlug({ slug: input.organization.slug })
  }
})

/**
 * Self-serve signup (when the deployment opens it): a new account, owner of a new organisation,
 * signed in. Throttled per client address. The organisation is written with its Owner role first
 * (`insertOrganization`), then the account in it: one that loses a race for its username or e-mail between the check and
 * the write leaves an organisation without members, which the operator may remove.
 */
export const signUp = Effect.fnUntraced(function* (input: SignUpInput) {
  if ((yield* AuthSettings).signupOpen !== true) return yield* new SignupClosed()
  yield* countSignup(input.client)
  const email = normalizeEmail(input.email)
  yield* requireFree(input, email)
  const ids = yield* IdGenerator
  const now = yield* DateTime.now
  const memberId = yield* ids.next("member")
  const actor = { kind: "member" as const, id: memberId }
  const organization = new Organization({
    id: yield* ids.next("organization"),
    name: input.organization.name,
    slug: input.organization.slug,
    createdAt: now
  })
  const inOrganization = Effect.provideService(CurrentOrganization, organization.id)
  const { organization: founded, owner } = yield* insertOrganization(organization, actor)
  const record = yield* newOwnerAccount({
    id: memberId,
    organizationId: organization.id,
    username: input.username,
    email,
    password: input.password,
    roleId: owner.id,
    createdAt: now
  })
  const added = yield* inOrganization(
    newAuditEntry(
      actor,
      "member.added",
      { type: "member", id: memberId },
      changesBetween(null, toMember(record), memberAuditFields)
    )
  )
  yield* inOrganization((yield* MemberStore).insert(record, added)).pipe(
    // The Owner role was made a moment ago, in an organisation nobody else can reach yet.
    Effect.catchTag("UnknownRole", (missing) => Effect.die(missing))
  )
  return yield* startSession(record, founded, byPassword)
})
