import { type DateTime, Schema } from "effect"
import { MemberId, RoleId } from "./ids.ts"
import { Email, type Member } from "./member.ts"
import { type Role, RoleName } from "./role.ts"
import { inNfc, isDisplayable } from "./text.ts"

/** Text an identity provider keeps on a person or a group, as given (NFC). */
export const ProfileText = inNfc(Schema.String.check(Schema.isMaxLength(256), isDisplayable))

/** The identity provider's own id of a person or a group. */
export const ExternalId = inNfc(Schema.String.check(Schema.isBetweenLength(1, 256), isDisplayable))

/**
 * How the identity provider names a person: often an e-mail address or a UPN, which no Roster
 * username can be, so it is kept beside the account's username. Unique in the organisation, ignoring
 * case.
 */
export const ProvisionedUserName = inNfc(
  Schema.String.check(Schema.isTrimmed(), Schema.isBetweenLength(1, 256), isDisplayable)
)

/** What `ProvisionedUserName`s are compared by. */
export const provisionedUserNameKey = (userName: string): string => userName.normalize("NFC").toLowerCase()

export const PersonName = Schema.Struct({
  formatted: Schema.optionalKey(ProfileText),
  familyName: Schema.optionalKey(ProfileText),
  givenName: Schema.optionalKey(ProfileText),
  middleName: Schema.optionalKey(ProfileText),
  honorificPrefix: Schema.optionalKey(ProfileText),
  honorificSuffix: Schema.optionalKey(ProfileText)
})
export type PersonName = typeof PersonName.Type

/** What an identity provider keeps on a member that Roster's own fields do not hold. */
export class UserProfile extends Schema.Class<UserProfile>("roster/UserProfile")({
  memberId: MemberId,
  userName: ProvisionedUserName,
  externalId: Schema.optionalKey(ExternalId),
  displayName: Schema.optionalKey(ProfileText),
  name: Schema.optionalKey(PersonName),
  /** The kind the provider gave the member's e-mail ("work", say). */
  emailType: Schema.optionalKey(ProfileText),
  /** Whether the provider marked the e-mail primary, as it said it; the member's one e-mail is. */
  emailPrimary: Schema.optionalKey(Schema.Boolean),
  lastModified: Schema.DateTimeUtc
}) {}

/** What an identity provider keeps on a role it manages as a group. */
export class GroupProfile extends Schema.Class<GroupProfile>("roster/GroupProfile")({
  roleId: RoleId,
  externalId: Schema.optionalKey(ExternalId),
  lastModified: Schema.DateTimeUtc
}) {}

/** A member as an identity provider sees it: with its profile, if it has one, and its role. */
export interface ProvisionedUser {
  readonly member: Member
  readonly profile: UserProfile | undefined
  readonly role: Role | undefined
}

/** A role as an identity provider sees it: a group of the members holding it. */
export interface ProvisionedGroup {
  readonly role: Role
  readonly memberIds: ReadonlyArray<MemberId>
  readonly profile: GroupProfile | undefined
}

/** What an identity provider asks a member to be; what it leaves out is left as it is. */
export const ProvisionedUserInput = Schema.Struct({
  userName: ProvisionedUserName,
  email: Schema.optionalKey(Email),
  active: Schema.optionalKey(Schema.Boolean),
  externalId: Schema.optionalKey(ExternalId),
  displayName: Schema.optionalKey(ProfileText),
  name: Schema.optionalKey(PersonName),
  emailType: Schema.optionalKey(ProfileText),
  emailPrimary: Schema.optionalKey(Schema.Boolean)
})
export type ProvisionedUserInput = typeof ProvisionedUserInput.Type

/** The profile `input` gives the member `memberId`: all of it but what Roster's own fields hold. */
export const profileOf = (
  input: ProvisionedUserInput,
  memberId: MemberId,
  lastModified: DateTime.Utc
): UserProfile => {
  const { email: _email, active: _active, ...kept } = input
  return new UserProfile({ ...kept, memberId, lastModified })
}

/** What an identity provider asks a group to be: its name, its members. */
export const ProvisionedGroupInput = Schema.Struct({
  displayName: RoleName,
  externalId: Schema.optionalKey(ExternalId),
  memberIds: Schema.Array(MemberId)
})
export type ProvisionedGroupInput = typeof ProvisionedGroupInput.Type

/** The profile `input` gives the role `roleId`: what the group holds beyond the role itself. */
export const groupProfileOf = (input: ProvisionedGroupInput, roleId: RoleId, lastModified: DateTime.Utc) =>
  new GroupProfile({
    roleId,
    ...(input.externalId === undefined ? {} : { externalId: input.externalId }),
    lastModified
  })
