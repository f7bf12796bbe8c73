import { Layer } from "effect"
import { idGeneratorLayer } from "./id-generator.ts"
import { type ScryptParameters, scryptPasswordHasherLayer } from "./scrypt-password-hasher.ts"
import { tokenIssuerLayer } from "./token-issuer.ts"
import { totpLayer } from "./totp.ts"

export { accessTokenSignerLayer } from "./access-token-signer.ts"
export { idGeneratorLayer } from "./id-generator.ts"
export { recoveryCodesLayer } from "./recovery-codes.ts"
export {
  defaultHashingBound,
  makeScryptPasswordHasher,
  owaspScrypt,
  owaspScryptLowMemory,
  type ScryptParameters,
  scryptPasswordHasherLayer
} from "./scrypt-password-hasher.ts"
export { secretBoxLayer } from "./secret-box.ts"
export { hashToken, tokenIssuerLayer, tokenPrefixes } from "./token-issuer.ts"
export { totpLayer } from "./totp.ts"

/** Password hashing, session tokens, ids and TOTP on the runtime's own crypto (Node, Bun or Deno). */
export const CryptoServices = (parameters?: ScryptParameters) =>
  Layer.mergeAll(scryptPasswordHasherLayer(parameters), tokenIssuerLayer, idGeneratorLayer, totpLayer)
