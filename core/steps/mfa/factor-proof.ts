import { Effect, Option, Schema } from "effect"
import { MfaInvalid, NotFound } from "../../model/errors.ts"
import { hasTotp } from "../../model/mfa.ts"
import type { Principal } from "../../model/principal.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
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
 * A change to the TOTP itself (`totpRequired`) has nothing to change without one: `NotFound`,
 * before any guess is counted. Answers the account and its factor as read.
 */
export const proveFactorOwner = Effect.fnUntraced(function* (
  actor: Principal,
  input: FactorProof,
  client: string,
  totpRequired = false
) {
  const { member } = yield* ownAccount(actor)
  const record = Option.getOrUndefined(yield* (yield* MfaStore).find(member.id))
  if (totpRequired && !hasTotp(record)) return yield* new NotFound({ entity: "totp", id: member.id })
  if (hasTotp(record) && input.code === undefined) return yield* new MfaInvalid()
  const account = yield* proveOwnPassword(member.id, input.password, client)
  if (hasTotp(record) && !(yield* secondFactorHolds(record, input.code ?? "", auditActorOf(actor), client))) {
    return yield* new MfaInvalid()
  }
  return { account, record }
})
