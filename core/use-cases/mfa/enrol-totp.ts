import { Effect, Option, Redacted } from "effect"
import { SecretsKeyRequired } from "../../model/errors.ts"
import type { Principal } from "../../model/principal.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
import { SecretBox } from "../../ports/secret-box.ts"
import { Totp } from "../../ports/totp.ts"
import { ownAccount } from "../../steps/account/own-account.ts"
import { type FactorProof, proveFactorOwner } from "../../steps/mfa/factor-proof.ts"

/**
 * Starts TOTP for the signed-in person, proving their password (and, to replace a factor that is
 * on, a code of it): a new secret, kept sealed and pending until a code made from it confirms it
 * (see `confirmTotp`); the factor that is on stays until then. Answers the secret and its
 * `otpauth://` URI, this once. A deployment with a master key and no key to seal secrets refuses,
 * before the password is tried.
 */
export const enrolTotp = Effect.fnUntraced(function* (actor: Principal, input: FactorProof, client: string) {
  const { member } = yield* ownAccount(actor)
  const box = yield* SecretBox
  if (!box.sealing && Option.isSome((yield* AuthSettings).masterKeyHash))
    return yield* new SecretsKeyRequired()
  const { account } = yield* proveFactorOwner(actor, input, client)
  const totp = yield* Totp
  const secret = yield* totp.newSecret
  yield* (yield* MfaStore).enrol(member.id, yield* box.seal(secret))
  // The URI holds the secret: as secret as it.
  return { secret, otpauthUri: Redacted.make(totp.uriOf(secret, account.email)) }
})
