import { Context, type Effect } from "effect"
import type { PasskeyOriginRefused, PasskeyRefused } from "../model/errors.ts"
import type { AssertionClaims, PasskeyRecord, VerifiedCredential } from "../model/passkey.ts"

/** The deployment's relying party: the domain passkeys are bound to, the origins that may use them. */
export interface RelyingParty {
  readonly rpId: string
  readonly origins: ReadonlyArray<string>
}

/**
 * WebAuthn's ceremonies, with the deployment's relying party (RP ID, allowed origins): options for
 * the browser, and each response verified (`PasskeyRefused`: its challenge, origin, RP ID,
 * signature or flags do not hold, or it is malformed). User verification is always required.
 * Without a relying party (`undefined`: passkeys are off) no ceremony is started.
 */
export class WebAuthn extends Context.Service<
  WebAuthn,
  {
    readonly relyingParty: RelyingParty | undefined
    /** Options to add a passkey for the account (its id as the user handle); `exclude` are its passkeys. */
    readonly registrationOptions: (
      user: { readonly id: string; readonly name: string; readonly displayName: string },
      exclude: ReadonlyArray<PasskeyRecord>
    ) => Effect.Effect<{ readonly options: Record<string, unknown>; readonly challenge: string }>
    /** Options to sign in: for any discoverable passkey (none named), or one of `allow`. */
    readonly authenticationOptions: (
      allow: ReadonlyArray<PasskeyRecord> | undefined
    ) => Effect.Effect<{ readonly options: Record<string, unknown>; readonly challenge: string }>
    readonly verifyRegistration: (
      response: Record<string, unknown>,
      challenge: string
    ) => Effect.Effect<VerifiedCredential, PasskeyRefused>
    /**
     * The credential and user handle a sign-in's response names, before anything is verified; a
     * response made on a page of an origin not allowed is `PasskeyOriginRefused`, naming those allowed.
     */
    readonly claimsOf: (
      response: Record<string, unknown>
    ) => Effect.Effect<AssertionClaims, PasskeyRefused | PasskeyOriginRefused>
    /** Verifies a sign-in's response against the stored credential; answers the authenticator's counter. */
    readonly verifyAuthentication: (
      response: Record<string, unknown>,
      challenge: string,
      credential: PasskeyRecord
    ) => Effect.Effect<
      {
        readonly counter: number
        /** Whether the credential says it is backed up (a synced passkey), when it says. */
        readonly backedUp?: boolean
      },
      PasskeyRefused
    >
  }
>()("roster/core/ports/WebAuthn") {}
