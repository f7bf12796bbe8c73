import { Context, type DateTime, type Effect, type Redacted } from "effect"
import type { MailUnavailable } from "../model/errors.ts"
import type { Organization } from "../model/organization.ts"

export interface InvitationMessage {
  readonly to: string
  readonly organization: Organization
  readonly token: Redacted.Redacted<string>
  readonly expiresAt: DateTime.Utc
}

/**
 * Delivers invitations by mail. A deployment without mail (`delivers` false) gives the token to
 * whoever created the invitation, once, for their own delivery.
 */
export class InvitationMail extends Context.Service<
  InvitationMail,
  {
    readonly delivers: boolean
    readonly send: (message: InvitationMessage) => Effect.Effect<void, MailUnavailable>
  }
>()("roster/core/ports/InvitationMail") {}
