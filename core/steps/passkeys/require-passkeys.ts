import { Effect } from "effect"
import { PasskeysUnavailable } from "../../model/errors.ts"
import { WebAuthn } from "../../ports/webauthn.ts"

/** Refuses a passkey ceremony, before any other work, where the deployment has passkeys off. */
export const requirePasskeys = Effect.gen(function* () {
  if ((yield* WebAuthn).relyingParty === undefined) return yield* new PasskeysUnavailable()
})
