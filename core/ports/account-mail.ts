import { Context, type DateTime, type Effect, type Redacted } from "effect"
import type { MailedPurpose } from "../model/account-token.ts"
import type { MailUnavailable } from "../model/errors.ts"

export interface AccountMessage {
  readonly to: string
  readonly purpose: MailedPurpose
  readonly token: Redacted.Redacted<string>
  readonly expiresAt: DateTime.Utc
}

/**
 * Mails people the links that prove their address (a password reset, a verification). `delivers`
 * says, per purpose, whether this deployment sends that mail at all: a token nobody receives is
 * never made.
 */
export class AccountMail extends Context.Service<
  AccountMail,
  {
    readonly delivers: Readonly<Record<MailedPurpose, boolean>>
    readonly send: (message: AccountMessage) => Effect.Effect<void, MailUnavailable>
  }
>()("roster/core/ports/AccountMail") {}
