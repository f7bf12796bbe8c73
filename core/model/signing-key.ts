import { Duration, Schema } from "effect"
import { SealedSecret } from "./mfa.ts"

/** The algorithm access tokens are signed with: Ed25519, measured faster to verify than ES256 on Bun. */
export const SigningAlgorithm = Schema.Literals(["EdDSA"])
export type SigningAlgorithm = typeof SigningAlgorithm.Type

/** A public key as a JSON Web Key (RFC 7517): its members, every one a string. */
export const PublicJwk = Schema.Record(Schema.String, Schema.String)
export type PublicJwk = typeof PublicJwk.Type

/**
 * One of the keys access tokens are signed with, kept in the store so that every instance signs
 * with the same: its id (`kid`, the RFC 7638 thumbprint of its public key), its public key, its
 * private key sealed under `ROSTER_SECRETS_KEY`, its place in the order keys were made (the first
 * is 1: two instances making the first at once make one), and when it begins to sign.
 */
// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class SigningKey extends Schema.Class<SigningKey>("roster/SigningKey")({
  kid: Schema.String.check(Schema.isBetweenLength(1, 128)),
  alg: SigningAlgorithm,
  publicJwk: PublicJwk,
  privateKey: SealedSecret,
  sequence: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  createdAt: Schema.DateTimeUtc,
  signsFrom: Schema.DateTimeUtc
}) {}

/** How long a key set may be kept by whoever fetched it (the JWKS's `max-age`). */
export const keySetMaxAge = Duration.seconds(300)

/**
 * How long after a rotation the new key begins to sign, by default: the key set's `max-age` and a
 * minute, so that every verifier holding the set learns the new key before a token names it.
 */
export const defaultRotationDelay = Duration.seconds(360)

/** A key that no longer signs stays published this much longer than its last token lives. */
export const retiredKeyMargin = Duration.seconds(60)

/** A public key as published: the key's own members with its id, its algorithm, and its use. */
export const publishedJwk = (key: SigningKey): PublicJwk => ({
  ...key.publicJwk,
  kid: key.kid,
  alg: key.alg,
  use: "sig"
})
