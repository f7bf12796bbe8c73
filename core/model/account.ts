import { Schema } from "effect"
import { MemberId, OrganizationId, RoleId } from "./ids.ts"
import { Email, MemberRecord, Username } from "./member.ts"

/**
 * A person: the credential and what is theirs wherever they are a member. The account's `id` is the
 * id of each of its memberships, so a member keeps one id in every organisation they join.
 */
// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class AccountRecord extends Schema.Class<AccountRecord>("roster/AccountRecord")({
  id: MemberId,
  username: Username,
  email: Email,
  emailVerified: Schema.Boolean,
  passwordHash: Schema.String,
  accountActiveStatus: Schema.Boolean,
  createdAt: Schema.DateTimeUtc
}) {}

/**
 * The credential of an account nobody knows a password to (one single sign-on made): no hash of any
 * password has this form, so it matches none. Made without hashing, where hashing a random password
 * cost a sign-in as much as a password login; a hasher spends a hash on it all the same, so that
 * trying a password does not tell such an account from another.
 */
export const noPasswordHash = "!none"

/** A new member: the membership seen with its account, and the account's credential. */
// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class NewMember extends Schema.Class<NewMember>("roster/NewMember")({
  ...MemberRecord.fields,
  passwordHash: Schema.String
}) {}

/** One organisation an account belongs to, as the account's own list shows it. */
export const Membership = Schema.Struct({
  organizationId: OrganizationId,
  roleId: RoleId,
  activestatus: Schema.Boolean,
  createdAt: Schema.DateTimeUtc
})
export type Membership = typeof Membership.Type

/**
 * The membership an account acts in when nothing names one: its oldest active one, else its
 * oldest (memberships are listed oldest first).
 */
export const homeMembership = (memberships: ReadonlyArray<Membership>): Membership | undefined =>
  memberships.find((membership) => membership.activestatus) ?? memberships[0]

/**
 * What a change to an account may set: it shows in every organisation the account belongs to. A
 * new e-mail is not proven: whoever changes it sets `emailVerified` false with it.
 */
export const AccountChanges = Schema.Struct({
  username: Schema.optionalKey(Username),
  email: Schema.optionalKey(Email),
  emailVerified: Schema.optionalKey(Schema.Boolean)
})
export type AccountChanges = typeof AccountChanges.Type

/** What a change to one membership may set. */
export const MembershipChanges = Schema.Struct({
  activestatus: Schema.optionalKey(Schema.Boolean),
  roleId: Schema.optionalKey(RoleId)
})
export type MembershipChanges = typeof MembershipChanges.Type
