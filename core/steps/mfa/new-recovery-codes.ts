import { Effect, type Redacted } from "effect"
import { recoveryCodeCount } from "../../model/mfa.ts"
import { RecoveryCodes } from "../../ports/recovery-codes.ts"

/**
 * A new set of recovery codes for the factor whose secret is `key`: the codes, to show once, and
 * their digests, to keep.
 */
export const newRecoveryCodes = Effect.fnUntraced(function* (key: Redacted.Redacted<string>) {
  const codes = yield* RecoveryCodes
  const issued = yield* Effect.all(Array.from({ length: recoveryCodeCount }, () => codes.issue(key)))
  return { codes: issued.map(({ code }) => code), digests: issued.map(({ digest }) => digest) }
})
