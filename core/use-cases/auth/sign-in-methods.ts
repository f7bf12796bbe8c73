import { Effect, Option, Schema } from "effect"
import { AccountMail } from "../../ports/account-mail.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { SecretBox } from "../../ports/secret-box.ts"
import { WebAuthn } from "../../ports/webauthn.ts"

/** What this deployment offers someone who is not signed in yet, beside a password, and what it can keep. */
export const SignInMethods = Schema.Struct({
  /** Whether a forgotten password can be reset by a mailed link. */
  passwordReset: Schema.Boolean,
  /** Whether an e-mail address can be confirmed by a mailed link. */
  emailVerification: Schema.Boolean,
  /** Whether passkeys are on: off where the public URL is an IP address and no RP ID is set. */
  passkeys: Schema.Boolean,
  /** The origins whose pages may use passkeys (none while they are off): the addresses to sign in at. */
  passkeyOrigins: Schema.Array(Schema.String),
  /**
   * Whether secrets can be kept (TOTP, single sign-on's keys): false where the deployment has a
   * master key and no `ROSTER_SECRETS_KEY`, which refuses those with `secrets_key_required`.
   */
  keepsSecrets: Schema.Boolean
})
export type SignInMethods = typeof SignInMethods.Type

/** The ways in this deployment offers: mailed links only where it mails them, passkeys where they are on. */
export const signInMethods = Effect.gen(function* () {
  const { delivers } = yield* AccountMail
  const party = (yield* WebAuthn).relyingParty
  const methods: SignInMethods = {
    passwordReset: delivers.password_reset,
    emailVerification: delivers.email_verification,
    passkeys: party !== undefined,
    passkeyOrigins: party === undefined ? [] : [...party.origins],
    keepsSecrets: (yield* SecretBox).sealing || Option.isNone((yield* AuthSettings).masterKeyHash)
  }
  return methods
})
