import { Redacted } from "effect"
import { recordingAccountMail, recordingInvitationMail } from "../../adapters/memory/index.ts"
import type { AccountTokenPurpose } from "../../core/index.ts"

/**
 * Mail kept in process memory, for `startApi`: what the service would have sent, tokens included,
 * so that a test follows a link as its reader would. The real SMTP path has its own tests.
 */
export const mailbox = () => {
  const accounts = recordingAccountMail()
  const invitations = recordingInvitationMail()
  const sentTo = (to: string, purpose: AccountTokenPurpose) =>
    accounts.sent.filter((message) => message.to === to && message.purpose === purpose)
  /** The token of the `nth` message of `purpose` to `to`, once it has come (mail may go off the request's path). */
  const tokenSent = async (to: string, purpose: AccountTokenPurpose, nth = 1) => {
    for (let tries = 0; tries < 250; tries++) {
      const message = sentTo(to, purpose)[nth - 1]
      if (message !== undefined) return Redacted.value(message.token)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    throw new Error(`No ${purpose} message #${nth} to ${to}`)
  }
  const invitationTo = (to: string) => {
    const message = invitations.sent.find((sent) => sent.to === to)
    if (message === undefined) throw new Error(`No invitation to ${to}`)
    return Redacted.value(message.token)
  }
  /** The new addresses `to` was told its account moved to, once told (notices go off the request's path). */
  const toldAt = async (to: string, count = 1) => {
    for (let tries = 0; tries < 250; tries++) {
      const told = accounts.told.filter((notice) => notice.to === to)
      if (told.length >= count) return told.map((notice) => notice.newEmail)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    throw new Error(`${to} was told of ${count} address changes`)
  }
  return {
    accountMail: accounts.layer,
    told: accounts.told,
    toldAt,
    invitationMail: invitations.layer,
    sentTo,
    tokenSent,
    invitationTo
  }
}
