import { Schema } from "effect"
import { MemberId, OrganizationId, type TokenHash } from "./ids.ts"
import { isDisplayable } from "./text.ts"

/** A passkey's credential id, as WebAuthn's JSON gives it (base64url). */
export const PasskeyId = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9_-]{16,1366}$/u, { expected: "a credential id (base64url)" })
).pipe(Schema.brand("PasskeyId"))
export type PasskeyId = typeof PasskeyId.Type

export const PasskeyName = Schema.String.check(
  Schema.isTrimmed(),
  Schema.isBetweenLength(1, 100),
  isDisplayable
)

/** At most this many passkeys per account. */
export const maxPasskeys = 20

/**
 * A passkey of an account: its credential's public key (COSE, base64url) and signature counter,
 * never a secret. A credential whose counter went backwards is kept `suspended`: refused from then on.
 */
export class PasskeyRecord extends Schema.Class<PasskeyRecord>("roster/PasskeyRecord")({
  id: PasskeyId,
  accountId: MemberId,
  name: PasskeyName,
  publicKey: Schema.String,
  counter: Schema.Int,
  transports: Schema.Array(Schema.String),
  backedUp: Schema.Boolean,
  createdAt: Schema.DateTimeUtc,
  lastUsedAt: Schema.NullOr(Schema.DateTimeUtc),
  suspended: Schema.Boolean
}) {}

/** A passkey as its owner sees it. */
export const Passkey = Schema.Struct({
  id: PasskeyId,
  name: PasskeyName,
  createdAt: Schema.DateTimeUtc,
  lastUsedAt: Schema.NullOr(Schema.DateTimeUtc),
  backedUp: Schema.Boolean,
  transports: Schema.Array(Schema.String)
})
export type Passkey = typeof Passkey.Type

export const toPasskey = (record: PasskeyRecord): Passkey => ({
  id: record.id,
  name: record.name,
  createdAt: record.createdAt,
  lastUsedAt: record.lastUsedAt,
  backedUp: record.backedUp,
  transports: record.transports
})

/**
 * What a WebAuthn challenge is for: adding a passkey to an account, signing in with one (no account
 * named yet), or answering a password login's second step.
 */
export const PasskeyCeremony = Schema.Literals(["registration", "sign_in", "second_step"])
export type PasskeyCeremony = typeof PasskeyCeremony.Type

/**
 * A WebAuthn challenge waiting for its response: used once, within five minutes. `owner` is what it
 * belongs to: the account adding a passkey, the sign-in's own id, or the second step's challenge.
 * The challenge is a nonce sent to the browser in the clear; it proves nothing by itself.
 */
export class PasskeyChallenge extends Schema.Class<PasskeyChallenge>("roster/PasskeyChallenge")({
  ceremony: PasskeyCeremony,
  owner: Schema.String,
  challenge: Schema.String,
  accountId: Schema.NullOr(MemberId),
  organizationId: Schema.NullOr(OrganizationId),
  createdAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc
}) {}

/** How long a challenge may be answered. */
export const passkeyChallengeSeconds = 300

/** A passkey's new record, as the verifier read it from a registration response. */
export interface VerifiedCredential {
  readonly id: string
  readonly publicKey: string
  readonly counter: number
  readonly transports: ReadonlyArray<string>
  readonly backedUp: boolean
}

/** What an assertion (a sign-in's response) names before it is verified: its credential and user handle. */
export interface AssertionClaims {
  readonly credentialId: string
  /** The account the authenticator says it signs in as (its id); none for a non-discoverable credential. */
  readonly userHandle: string | undefined
}

export const RegisterPasskeyInput = Schema.Struct({
  name: PasskeyName,
  /** The browser's `RegistrationResponseJSON`, as `navigator.credentials.create` made it. */
  response: Schema.Record(Schema.String, Schema.Unknown)
})
export type RegisterPasskeyInput = typeof RegisterPasskeyInput.Type

export const RenamePasskeyInput = Schema.Struct({ name: PasskeyName })

export const PasskeySignInInput = Schema.Struct({
  challengeId: Schema.String.check(Schema.isBetweenLength(1, 256)),
  /** The browser's `AuthenticationResponseJSON`. */
  response: Schema.Record(Schema.String, Schema.Unknown)
})
export type PasskeySignInInput = typeof PasskeySignInInput.Type

/** The digest under which a second step's passkey challenge is kept: its login challenge's. */
export type SecondStepOwner = TokenHash
