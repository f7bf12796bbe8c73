import { Effect, Option, Schema } from "effect"
import { homeMembership } from "../../model/account.ts"
import { MailOff } from "../../model/errors.ts"
import { Email } from "../../model/member.ts"
import { AccountMail } from "../../ports/account-mail.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { countMailRequest } from "../../steps/account/count-mail-request.ts"
import { mailAccountToken } from "../../steps/account/mail-account-token.ts"
import { offThePath } from "../../steps/auth/off-the-path.ts"

export const RequestPasswordResetInput = Schema.Struct({
  email: Email,
  /** Who is calling, for throttling (the client address behind the HTTP adapter). */
  client: Schema.String.check(Schema.isMaxLength(256))
})
export type RequestPasswordResetInput = typeof RequestPasswordResetInput.Type

/** Mails a reset link to the active account at `email`, if there is one; nothing otherwise. */
const mailResetLink = Effect.fnUntraced(function* (email: string) {
  const members = yield* MemberStore
  const account = yield* members.findByLogin(email)
  if (Option.isNone(account) || !account.value.accountActiveStatus) return
  const memberships = yield* members.membershipsOf(account.value.id)
  const home = homeMembership(memberships)
  if (home === undefined) return
  yield* mailAccountToken("password_reset", account.value.id, home.organizationId)
})

/**
 * Asks for a password reset link. The answer is the same, and comes as soon, whether or not the
 * address has an account: once the request is counted, the lookup, the token and the mail happen
 * off the request's path, and a failure there is logged, never answered.
 */
export const requestPasswordReset = Effect.fnUntraced(function* (input: RequestPasswordResetInput) {
  if (!(yield* AccountMail).delivers.password_reset) return yield* new MailOff({ purpose: "password_reset" })
  yield* countMailRequest("password_reset", input.email, input.client)
  yield* offThePath(mailResetLink(input.email))
})
