import { Schema } from "effect"
import { MemberId, TokenHash } from "./ids.ts"

/** A secret as `SecretBox` sealed it: opaque to everything but the box that opens it. */
export const SealedSecret = Schema.String.pipe(Schema.brand("SealedSecret"))
export type SealedSecret = typeof SealedSecret.Type

/** How many recovery codes an account is given at once. */
export const recoveryCodeCount = 10

/**
 * An account's second factor: its TOTP secret once confirmed, one enrolled but not yet confirmed,
 * the last time step a code was taken for (a code of that step or before is refused), and the
 * digests of its unused recovery codes.
 */
// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class MfaRecord extends Schema.Class<MfaRecord>("roster/MfaRecord")({
  accountId: MemberId,
  secret: Schema.NullOr(SealedSecret),
  pending: Schema.NullOr(SealedSecret),
  lastStep: Schema.Int,
  recoveryCodes: Schema.Array(TokenHash)
}) {}

/** Whether the account signs in with a second factor. */
export const hasTotp = (
  record: MfaRecord | undefined
): record is MfaRecord & { readonly secret: SealedSecret } => record !== undefined && record.secret !== null

/**
 * A way to give a login's second step: a code from the TOTP app, one of the recovery codes, or a
 * passkey. A login's challenge lists those its account holds, in this order.
 */
export const SecondFactorMethod = Schema.Literals(["totp", "recovery_code", "passkey"])
export type SecondFactorMethod = typeof SecondFactorMethod.Type
