import { Context, type Effect, type Redacted } from "effect"
import type { TokenHash } from "../model/ids.ts"

/** A recovery code as typed, in the form it is digested in: lower case, without spaces or dashes. */
export const normalRecoveryCode = (typed: string) => typed.toLowerCase().replace(/[\s-]/gu, "")

/**
 * Recovery codes: at least 80 random bits each, easy to type, kept only as a digest keyed by the
 * account's second factor (`key`, its TOTP secret as opened), so that the stored digests alone
 * cannot be tried offline.
 */
export class RecoveryCodes extends Context.Service<
  RecoveryCodes,
  {
    readonly issue: (
      key: Redacted.Redacted<string>
    ) => Effect.Effect<{ readonly code: Redacted.Redacted<string>; readonly digest: TokenHash }>
    /** The digest `typed` is kept under, if it is one of the codes issued with `key`. */
    readonly digestOf: (key: Redacted.Redacted<string>, typed: string) => Effect.Effect<TokenHash>
  }
>()("roster/core/ports/RecoveryCodes") {}
