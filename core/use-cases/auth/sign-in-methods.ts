import { Effect, Schema } from "effect"
import { AccountMail } from "../../ports/account-mail.ts"

/** What this deployment offers someone who is not signed in yet, beside a password and passkeys. */
export const SignInMethods = Schema.Struct({
  /** Whether a forgotten password can be reset by a mailed link. */
  passwordReset: Schema.Boolean,
  /** Whether an e-mail address can be confirmed by a mailed link. */
  emailVerification: Schema.Boolean
})
export type SignInMethods = typeof SignInMethods.Type

/** The ways in this deployment offers: mailed links only where it mails them. */
export const signInMethods = Effect.gen(function* () {
  const { delivers } = yield* AccountMail
  const methods: SignInMethods = {
    passwordReset: delivers.password_reset,
    emailVerification: delivers.email_verification
  }
  return methods
})
