import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { Effect, Layer, Redacted } from "effect"
import { PasswordHasher } from "../../core/index.ts"

export interface ScryptParameters {
  /** log2 of the CPU/memory cost N. */
  readonly logN: number
  readonly blockSize: number
  readonly parallelism: number
}

/** OWASP's recommended minimum for scrypt: N = 2^17, r = 8, p = 1 (128 MiB per hash). */
export const owaspScrypt: ScryptParameters = { logN: 17, blockSize: 8, parallelism: 1 }

const keyLength = 32
const saltLength = 16
const encodedPattern = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/

const derive = (password: string, salt: Buffer, parameters: ScryptParameters) =>
  Effect.callback<Buffer>((resume) => {
    const N = 2 ** parameters.logN
    const options = {
      N,
      r: parameters.blockSize,
      p: parameters.parallelism,
      maxmem: 256 * N * parameters.blockSize
    }
    // node:crypto's scrypt runs on the runtime's thread pool, off the event loop (Node, Bun and Deno alike).
    // Bun reports success with an undefined error, Node with null.
    scrypt(password.normalize("NFC"), salt, keyLength, options, (error, key) =>
      resume(error ? Effect.die(error) : Effect.succeed(key))
    )
  })

const encode = (parameters: ScryptParameters, salt: Buffer, key: Buffer) =>
  `$scrypt$ln=${parameters.logN},r=${parameters.blockSize},p=${parameters.parallelism}$${salt.toString("base64").replace(/=+$/, "")}$${key.toString("base64").replace(/=+$/, "")}`

/** Hashes in a PHC-style string that carries its own parameters, so they can be raised later. */
export const makeScryptPasswordHasher = (parameters: ScryptParameters = owaspScrypt) =>
  PasswordHasher.of({
    hash: (password) =>
      Effect.gen(function* () {
        const salt = randomBytes(saltLength)
        return encode(parameters, salt, yield* derive(Redacted.value(password), salt, parameters))
      }),
    verify: (hash, password) =>
      Effect.gen(function* () {
        const parts = encodedPattern.exec(hash)
        if (parts === null) return false
        const stored = { logN: Number(parts[1]), blockSize: Number(parts[2]), parallelism: Number(parts[3]) }
        const expected = Buffer.from(parts[5] ?? "", "base64")
        const actual = yield* derive(Redacted.value(password), Buffer.from(parts[4] ?? "", "base64"), stored)
        return expected.length === actual.length && timingSafeEqual(expected, actual)
      })
  })

export const scryptPasswordHasherLayer = (parameters: ScryptParameters = owaspScrypt) =>
  Layer.succeed(PasswordHasher, makeScryptPasswordHasher(parameters))
