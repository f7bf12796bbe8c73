import { Layer } from "effect"
import { idGeneratorLayer } from "./id-generator.ts"
import { type ScryptParameters, scryptPasswordHasherLayer } from "./scrypt-password-hasher.ts"
import { sessionTokensLayer } from "./session-tokens.ts"

export { idGeneratorLayer } from "./id-generator.ts"
export {
  defaultHashingBound,
  makeScryptPasswordHasher,
  owaspScrypt,
  owaspScryptLowMemory,
  type ScryptParameters,
  scryptPasswordHasherLayer
} from "./scrypt-password-hasher.ts"
export { hashToken, sessionTokensLayer, tokenPrefixes } from "./session-tokens.ts"

/** Password hashing, session tokens and ids on the runtime's own crypto (Node, Bun or Deno). */
export const CryptoServices = (parameters?: ScryptParameters) =>
  Layer.mergeAll(scryptPasswordHasherLayer(parameters), sessionTokensLayer, idGeneratorLayer)
