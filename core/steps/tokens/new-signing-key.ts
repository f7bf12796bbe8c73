import { DateTime, Effect } from "effect"
import { SigningKey } from "../../model/signing-key.ts"
import { AccessTokenSigner } from "../../ports/access-token-signer.ts"
import { SecretBox } from "../../ports/secret-box.ts"
import { SigningKeyStore } from "../../ports/signing-key-store.ts"

/**
 * Makes a key pair and keeps it, its private key sealed, as the `sequence`th key, signing from
 * `signsFrom`: none when another instance took that place first (its key is the one, then).
 */
export const addSigningKey = Effect.fnUntraced(function* (sequence: number, signsFrom: DateTime.Utc) {
  const pair = yield* (yield* AccessTokenSigner).newKeyPair
  const key = new SigningKey({
    kid: pair.kid,
    alg: pair.alg,
    publicJwk: pair.publicJwk,
    privateKey: yield* (yield* SecretBox).seal(pair.privateJwk),
    sequence,
    createdAt: yield* DateTime.now,
    signsFrom
  })
  return (yield* (yield* SigningKeyStore).add(key)) ? key : undefined
})

/** The place after every key's, in the order keys are made. */
export const nextSequence = (keys: ReadonlyArray<SigningKey>) =>
  keys.reduce((highest, key) => Math.max(highest, key.sequence), 0) + 1
