import { Effect, Option, Redacted, Schema } from "effect"
import { MfaInvalid, SecretsKeyRequired } from "../../model/errors.ts"
import { hasTotp } from "../../model/mfa.ts"
import type { Principal } from "../../model/principal.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
import { SecretBox } from "../../ports/secret-box.ts"
import { Totp } from "../../ports/totp.ts"
import { ownAccount } from "../account/own-account.ts"
import { auditActorOf } from "../audit/new-audit-entry.ts"
import { proveOwnPassword } from "./prove-own-password.ts"
import { secondFactorHolds } from "./second-factor.ts"

export const PasswordProof = Schema.Struct({
  password: Schema.RedactedFromValue(Schema.String.check(Schema.isBetweenLength(1, 256)))
})
export type PasswordProof = typeof PasswordProof.Type

/** The password and, while TOTP is on, a code of the active factor. */
export const FactorProof = Schema.Struct({
  ...PasswordProof.fields,
  /** A code from the app, or a recovery code, of the factor that is on. */
  code: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 32)))
})
export type FactorProof = typeof FactorProof.Type

/**
 * Proves the signed-in person again before their second factor changes: their password, and,
 * while TOTP is on, a code of it (without one, `MfaInvalid`), each guess throttled like a login.
 * Answers the account and its factor as read.
 */
export const proveFactorOwner = Effect.fnUntraced(function* (
  actor: Principal,
  input: FactorProof,
  client: string
) {
  const { member } = yield* ownAccount(actor)
  const record = Option.getOrUndefined(yield* (yield* MfaStore).find(member.id))
  if (hasTotp(record) && input.code === undefined) return yield* new MfaInvalid()
  const account = yield* proveOwnPassword(member.id, input.password, client)
  if (hasTotp(record) && !(yield* secondFactorHolds(record, input.code ?? "", auditActorOf(actor), client))) {
    return yield* new MfaInvalid()
  }
  return { account, record }
})

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
