import { Effect, Option, Redacted, Schema } from "effect"
import { SecretsKeyRequired } from "../../model/errors.ts"
import type { Principal } from "../../model/principal.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
import { SecretBox } from "../../ports/secret-box.ts"
import { Totp } from "../../ports/totp.ts"
import { ownAccount } from "../account/own-account.ts"
import { proveOwnPassword } from "./prove-own-password.ts"

export const PasswordProof = Schema.Struct({
  password: Schema.RedactedFromValue(Schema.String.check(Schema.isBetweenLength(1, 256)))
})
export type PasswordProof = typeof PasswordProof.Type

/**
 * Starts TOTP for the signed-in person, proving their password: a new secret, kept sealed and
 * pending until a code made from it confirms it (see `confirmTotp`). Answers the secret and its
 * `otpauth://` URI, this once. A deployment with a master key and no key to seal secrets refuses,
 * before the password is tried.
 */
export const enrolTotp = Effect.fnUntraced(function* (
  actor: Principal,
  input: PasswordProof,
  client: string
) {
  const { member } = yield* ownAccount(actor)
  const box = yield* SecretBox
  if (!box.sealing && Option.isSome((yield* AuthSettings).masterKeyHash))
    return yield* new SecretsKeyRequired()
  const account = yield* proveOwnPassword(member.id, input.password, client)
  const totp = yield* Totp
  const secret = yield* totp.newSecret
  yield* (yield* MfaStore).enrol(member.id, yield* box.seal(secret))
  // The URI holds the secret: as secret as it.
  return { secret, otpauthUri: Redacted.make(totp.uriOf(secret, account.email)) }
})
