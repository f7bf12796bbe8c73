import { Effect, Layer, Redacted } from "effect"
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT } from "jose"
import { AccessTokenSigner, type PublicJwk, SecretBox, type SigningKey } from "../../core/index.ts"

const algorithm = "EdDSA" as const

/** The members of a public JWK, every one a string (an Ed25519 key's `kty`, `crv` and `x`). */
const publicMembers = (jwk: Record<string, unknown>): PublicJwk => {
  const members: Record<string, string> = {}
  for (const [name, value] of Object.entries(jwk)) if (typeof value === "string") members[name] = value
  return members
}

/**
 * Access tokens signed with jose (Ed25519, EdDSA). Each key's private part is opened and imported
 * once, on its first token, and kept as a non-extractable CryptoKey: no token parses or opens it again.
 */
export const accessTokenSignerLayer = Layer.effect(
  AccessTokenSigner,
  Effect.gen(function* () {
    const box = yield* SecretBox
    const imported = new Map<string, Promise<CryptoKey>>()
    const privateKeyOf = (key: SigningKey) =>
      Effect.gen(function* () {
        const ready = imported.get(key.kid)
        if (ready !== undefined) return yield* Effect.promise(() => ready)
        const jwk = JSON.parse(Redacted.value(yield* box.open(key.privateKey))) as Record<string, string>
        const importing = importJWK(jwk, key.alg, { extractable: false }) as Promise<CryptoKey>
        imported.set(key.kid, importing)
        return yield* Effect.promise(() => importing)
      })
    return AccessTokenSigner.of({
      newKeyPair: Effect.promise(async () => {
        const pair = await generateKeyPair(algorithm, { extractable: true })
        const publicJwk = publicMembers(await exportJWK(pair.publicKey))
        return {
          kid: await calculateJwkThumbprint(publicJwk, "sha256"),
          alg: algorithm,
          publicJwk,
          privateJwk: Redacted.make(JSON.stringify(await exportJWK(pair.privateKey)))
        }
      }),
      sign: (claims, key) =>
        Effect.flatMap(privateKeyOf(key), (privateKey) =>
          Effect.promise(() =>
            new SignJWT({ ...claims })
              .setProtectedHeader({ alg: key.alg, typ: "at+jwt", kid: key.kid })
              .sign(privateKey)
          )
        ).pipe(Effect.map((token) => Redacted.make(token)))
    })
  })
)
