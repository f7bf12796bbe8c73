import { Effect, Schema } from "effect"
import { MailOff } from "../../model/errors.ts"
import { Email, normalizeEmail } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { AccountMail } from "../../ports/account-mail.ts"
import { countMailRequest } from "../../steps/account/count-mail-request.ts"
import { mailAccountToken } from "../../steps/account/mail-account-token.ts"
import { ownAccount } from "../../steps/account/own-account.ts"
import { offThePath } from "../../steps/auth/off-the-path.ts"
import { PasswordProof } from "../../steps/mfa/factor-proof.ts"
import { proveOwnPassword } from "../../steps/mfa/prove-own-password.ts"
import { requireAddressHeld } from "../../steps/sso/require-address-held.ts"

export const RequestEmailChangeInput = Schema.Struct({
  /** The new address: it is changed only once a link mailed to it is followed. */
  email: Email,
  ...PasswordProof.fields
})
export type RequestEmailChangeInput = typeof RequestEmailChangeInput.Type

/**
 * The signed-in person asks to move their account to a new address, proving their password: a
 * link is mailed to the new address, and following it (`verifyEmail`) makes the change, verified,
 * and tells the old address. Nothing changes until then. The mail goes off the request's path (a
 * mail server that does not take it is logged). Answers whether a link was sent (none is for the
 * address the account has already).
 */
export const requestEmailChange = Effect.fnUntraced(function* (
  actor: Principal,
  input: RequestEmailChangeInput,
  client: string
) {
  const { member } = yield* ownAccount(actor)
  if (!(yield* AccountMail).delivers.email_change) return yield* new MailOff({ purpose: "email_change" })
  const account = yield* proveOwnPassword(member.id, input.password, client)
  const email = normalizeEmail(input.email)
  if (email === account.email) return false
  yield* requireAddressHeld(member.id, email)
  yield* countMailRequest("email_change", email, client)
  yield* offThePath(mailAccountToken("email_change", member.id, yield* CurrentOrganization, email))
  return true
})
