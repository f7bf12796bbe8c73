import { type DateTime, Effect, type Redacted } from "effect"
import { NewMember } from "../../model/account.ts"
import type { MemberId, OrganizationId, RoleId } from "../../model/ids.ts"
import { PasswordHasher } from "../../ports/password-hasher.ts"

/** A new account, active, a member of the organisation in its Owner role, its password hashed. */
export const newOwnerAccount = Effect.fnUntraced(function* (account: {
  readonly id: MemberId
  readonly organizationId: OrganizationId
  readonly username: string
  /** Normalised. */
  readonly email: string
  readonly password: Redacted.Redacted<string>
  readonly roleId: RoleId
  readonly createdAt: DateTime.Utc
}) {
  const { password, ...fields } = account
  return new NewMember({
    ...fields,
    passwordHash: yield* (yield* PasswordHasher).hash(password),
    emailVerified: false,
    activestatus: true,
    accountActiveStatus: true,
    sessionEpoch: 0
  })
})
