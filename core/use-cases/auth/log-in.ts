import { Effect, Option, Schema } from "effect"
import { Forbidden, InvalidCredentials } from "../../model/errors.ts"
import { loginKey } from "../../model/member.ts"
import { OrganizationRef } from "../../model/organization.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { canAct } from "../../policy/access.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { PasswordHasher } from "../../ports/password-hasher.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { currentOrganization } from "../organizations/current-organization.ts"
import { countPasswordAttempt } from "./count-password-attempt.ts"
import { recordLoginFailure } from "./record-login-failure.ts"
import { startSession } from "./start-session.ts"

export const LogInInput = Schema.Struct({
  /** A username or an e-mail address. */
  username: Schema.String.check(Schema.isBetweenLength(1, 254)),
  password: Schema.RedactedFromValue(Schema.String.check(Schema.isBetweenLength(1, 256))),
  /** The organisation to act on (its id or slug); the account's own when absent. */
  organization: Schema.optionalKey(OrganizationRef),
  /** Who is calling, for throttling (the client address behind the HTTP adapter). */
  client: Schema.String.check(Schema.isMaxLength(256))
})
export type LogInInput = typeof LogInInput.Type

/**
 * A known account is counted by its id, so switching between its username and its e-mail does not
 * double the allowance (see `countPasswordAttempt`).
 */
export const logIn = Effect.fnUntraced(function* (input: LogInInput) {
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
  // An organisation the account is no member of is the same answer as a wrong password: which
  // organisations an account belongs to is not told to whoever knows its name.
  const named = input.organization
  if (named !== undefined && named !== organization.id && named !== organization.slug) {
    yield* attempt.giveBack
    return yield* new InvalidCredentials()
  }
  yield* attempt.succeeded
  return yield* startSession(member, organization)
})
