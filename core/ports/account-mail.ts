import { Context, type DateTime, type Effect, type Redacted } from "effect"
import type { MailedPurpose } from "../model/account-token.ts"
import type { MailUnavailable } from "../model/errors.ts"

export interface AccountMessage {
  readonly to: string
  readonly purpose: MailedPurpose
  readonly token: Redacted.Redacted<string>
  readonly expiresAt: DateTime.Utc
}

/** What an account's old address is told when the account's address changed. */
export interface AddressChangedNotice {
  readonly to: string
  readonly newEmail: string
}

/**
 * Mails people the links that prove their address (a password reset, a verification, a new
 * address) and notices of what changed their account. `delivers` says, per purpose, whether this
 * deployment sends that mail at all: a token nobody receives is never made. `tell` sends nothing
 * where no mail is sent.
 */
export class AccountMail extends Context.Service<
  AccountMail,
  {
    readonly delivers: Readonly<Record<MailedPurpose, boolean>>
    readonly send: (message: AccountMessage) => Effect.Effect<void, MailUnavailable>
    readonly tell: (notice: AddressChangedNotice) => Effect.Effect<void, MailUnavailable>
  }
>()("roster/core/ports/AccountMail") {}
