import { Effect, Option } from "effect"
import { MailOff, Unauthenticated } from "../../model/errors.ts"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { AccountMail } from "../../ports/account-mail.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { countMailRequest } from "../../steps/account/count-mail-request.ts"
import { mailAccountToken } from "../../steps/account/mail-account-token.ts"
import { ownAccount } from "../../steps/account/own-account.ts"

/**
 * Mails the signed-in member a link that proves their address; answers whether one was sent (none
 * is for an address verified already). The caller knows their own address: nothing is hidden, and a
 * mail server that does not take the message is answered.
 */
export const requestEmailVerification = Effect.fnUntraced(function* (actor: Principal, client: string) {
  const { member } = yield* ownAccount(actor)
  if (!(yield* AccountMail).delivers.email_verification) {
    return yield* new MailOff({ purpose: "email_verification" })
  }
  const account = yield* (yield* MemberStore).findAccount(member.id)
  if (Option.isNone(account)) return yield* new Unauthenticated({ reason: "invalid" })
  if (account.value.emailVerified) return false
  yield* countMailRequest("email_verification", account.value.email, client)
  yield* mailAccountToken("email_verification", member.id, yield* CurrentOrganization)
  return true
})
