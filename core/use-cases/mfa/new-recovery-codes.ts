import { Effect } from "effect"
import { recoveryCodeCount } from "../../model/mfa.ts"
import { SessionTokens } from "../../ports/session-tokens.ts"

/** A new set of recovery codes: the codes, to show once, and their digests, to keep. */
export const newRecoveryCodes = Effect.gen(function* () {
  const tokens = yield* SessionTokens
  const issued = yield* Effect.all(Array.from({ length: recoveryCodeCount }, () => tokens.issueRecoveryCode))
  return { codes: issued.map(({ code }) => code), digests: issued.map(({ hash }) => hash) }
})
