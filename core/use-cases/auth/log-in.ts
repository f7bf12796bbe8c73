import { DateTime, Effect, Option, Schema } from "effect"
import { Forbidden, InvalidCredentials } from "../../model/errors.ts"
import { loginKey, toMember } from "../../model/member.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { Session } from "../../model/session.ts"
import { canAct } from "../../policy/access.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { PasswordHasher } from "../../ports/password-hasher.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { SessionTokens } from "../../ports/session-tokens.ts"
import { currentOrganization } from "../organizations/current-organization.ts"
import { countPasswordAttempt } from "./count-password-attempt.ts"
import { recordLoginFailure } from "./record-login-failure.ts"

export const LogInInput = Schema.Struct({
  /** A username or an e-mail address. */
  username: Schema.String.check(Schema.isBetweenLength(1, 254)),
  password: Schema.RedactedFromValue(Schema.String.check(Schema.isBetweenLength(1, 256))),
  /** Who is calling, for throttling (the client address behind the HTTP adapter). */
  client: Schema.String.check(Schema.isMaxLength(256))
})
export type LogInInput = typeof LogInInput.Type

/**
 * A known account is counted by its id, so switching between its username and its e-mail does not
 * double the allowance (see `countPasswordAttempt`).
 */
export const logIn = Effect.fnUntraced(function* (input: LogInInput) {
  const settings = yield* AuthSettings
  const now = yield* DateTime.now
  const found = yield* (yield* MemberStore).findByLogin(input.username)
  const accountKey = Option.match(found, {
    onNone: () => `login:${loginKey(input.username)}`,
    onSome: (member) => `member:${member.id}`
  })
  const attempt = yield* countPasswordAttempt(accountKey, input.client).pipe(
    Effect.tapErrorTag("RateLimited", () =>
      recordLoginFailure("login.throttled", input.username, found, input.client)
    )
  )
  const hasher = yield* PasswordHasher
  // The member whose password matches, if any. An unknown login still spends one hash, so timing
  // does not reveal which accounts exist.
  const verified = yield* Option.match(found, {
    onNone: () => hasher.hash(input.password).pipe(Effect.as(found)),
    onSome: (record) =>
      hasher
        .verify(record.passwordHash, input.password)
        .pipe(Effect.map((ok) => (ok ? found : Option.none())))
  }).pipe(Effect.tapError(() => attempt.giveBack))
  if (Option.isNone(verified)) {
    yield* recordLoginFailure("login.failed", input.username, found, input.client)
    return yield* new InvalidCredentials()
  }
  const member = verified.value
  const role = yield* (yield* RoleStore)
    .findById(member.roleId)
    .pipe(Effect.provideService(CurrentOrganization, member.organizationId))
  if (!canAct(member, Option.getOrUndefined(role))) return yield* new Forbidden({ reason: "inactive" })
  // A membership left behind by a deleted organisation signs nobody in.
  const organization = yield* currentOrganization.pipe(
    Effect.provideService(CurrentOrganization, member.organizationId),
    Effect.catchTag("NotFound", () => Effect.fail(new InvalidCredentials()))
  )
  yield* attempt.succeeded
  const { token, hash } = yield* (yield* SessionTokens).issue
  const session = new Session({
    tokenHash: hash,
    memberId: member.id,
    organizationId: member.organizationId,
    memberEpoch: member.sessionEpoch,
    createdAt: now,
    expiresAt: DateTime.addDuration(now, settings.sessionTtl)
  })
  yield* (yield* SessionStore).create(session)
  return { token, expiresAt: session.expiresAt, member: toMember(member), organization }
})
