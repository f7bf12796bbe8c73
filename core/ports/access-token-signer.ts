import { Context, type Effect, type Redacted } from "effect"
import type { SecretUnreadable } from "../model/errors.ts"
import type { PublicJwk, SigningAlgorithm, SigningKey } from "../model/signing-key.ts"

/** A new key pair: its public key, its id (the RFC 7638 thumbprint), and its private key, secret. */
export interface NewKeyPair {
  readonly kid: string
  readonly alg: SigningAlgorithm
  readonly publicJwk: PublicJwk
  /** The private key as a JSON Web Key, to be sealed before it is kept. */
  readonly privateJwk: Redacted.Redacted<string>
}

/**
 * Signs access tokens as JWTs (RFC 9068: `typ: "at+jwt"`, the key's `kid`), with the keys of the
 * store: a key's private part is opened and imported once, then kept ready while the process runs.
 */
export class AccessTokenSigner extends Context.Service<
  AccessTokenSigner,
  {
    readonly newKeyPair: Effect.Effect<NewKeyPair>
    readonly sign: (
      claims: Readonly<Record<string, unknown>>,
      key: SigningKey
    ) => Effect.Effect<Redacted.Redacted<string>, SecretUnreadable>
  }
>()("roster/core/ports/AccessTokenSigner") {}
