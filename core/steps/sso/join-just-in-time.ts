import { DateTime, Effect, Option } from "effect"
import { type AccountRecord, NewMember, noPasswordHash } from "../../model/account.ts"
import { changesBetween } from "../../model/audit.ts"
import { memberAuditFields, toMember } from "../../model/member.ts"
import { CurrentOrganization } from "../../model/request.ts"
import type { SsoConnectionRecord } from "../../model/sso-connection.ts"
import { SsoAccountConflict, SsoRefused } from "../../model/sso-errors.ts"
import { requireTrusted } from "../../policy/connection-trust.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { newAuditEntry } from "../audit/new-audit-entry.ts"
import { seatsAfterMemberChange } from "../billing/sync-seats.ts"
import { defaultRole } from "../provisioning/default-role.ts"
import { freeUsername } from "../provisioning/free-username.ts"

const noDefaultRole = () => Effect.fail(new SsoRefused({ reason: "connection" }))

/**
 * Makes the person a member just in time, in the organisation's default role, as the connection
 * (an `sso` actor) adds them: a new account with no password anyone knows (they sign in through
 * the provider), its address proven by the domain the organisation verified; or, for an account
 * that this connection signs in already and that left, a membership again. Audited and counted as
 * a seat like any member added; only while the default role is within the connection's
 * `trustCeiling`.
 */
export const joinJustInTime = Effect.fnUntraced(function* (
  connection: SsoConnectionRecord,
  email: string,
  account: Option.Option<AccountRecord>
) {
  const members = yield* MemberStore
  const roleId = yield* defaultRole.pipe(Effect.catchTag("NoDefaultRole", noDefaultRole))
  yield* requireTrusted(connection, roleId)
  const base = Option.match(account, {
    // Stryker disable next-line ObjectLiteral: a field left out reads as undefined just the same
    onNone: () => ({ id: undefined, username: undefined }),
    onSome: ({ id, username }) => ({ id, username })
  })
  const now = yield* DateTime.now
  const member = new NewMember({
    id: base.id ?? (yield* (yield* IdGenerator).next("member")),
    organizationId: yield* CurrentOrganization,
    username: base.username ?? (yield* freeUsername(email.slice(0, email.lastIndexOf("@")))),
    email,
    emailVerified: true,
    // None: the person signs in through the provider.
    passwordHash: Option.isSome(account) ? account.value.passwordHash : noPasswordHash,
    activestatus: true,
    accountActiveStatus: true,
    sessionEpoch: 0,
    roleId,
    createdAt: now
  })
  const entry = yield* newAuditEntry(
    { kind: "sso", id: connection.id },
    "member.added",
    { type: "member", id: member.id },
    changesBetween(null, toMember(member), memberAuditFields)
  )
  if (Option.isSome(account)) {
    const joined = yield* members
      .join(member, entry)
      .pipe(Effect.catchTag("AlreadyMember", () => Effect.succeed(false)))
    if (!joined) return yield* new SsoRefused({ reason: "inactive" })
  } else {
    yield* members.insert(member, entry).pipe(
      Effect.catchTags({
        // Another sign-in, or an administrator, made the account meanwhile: it is not this one.
        DuplicateEmail: () => Effect.fail(new SsoAccountConflict()),
        DuplicateUsername: () => Effect.fail(new SsoAccountConflict()),
        UnknownRole: () => Effect.fail(new SsoRefused({ reason: "connection" }))
      })
    )
  }
  yield* seatsAfterMemberChange(undefined, member)
  const joined = yield* members.findById(member.id)
  // Removed as soon as made: nobody to sign in.
  if (Option.isNone(joined)) return yield* new SsoRefused({ reason: "inactive" })
  return joined.value
})
