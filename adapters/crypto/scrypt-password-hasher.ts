import { randomBytes, timingSafeEqual } from "node:crypto"
import { availableParallelism } from "node:os"
import { Effect, Layer, Redacted, Semaphore } from "effect"
import { HashingBusy, PasswordHasher } from "../../core/index.ts"
import { makeHashingThreads } from "./hashing-threads.ts"

export interface ScryptParameters {
  /** log2 of the CPU/memory cost N. */
  readonly logN: number
  readonly blockSize: number
  readonly parallelism: number
}

/** OWASP's recommended minimum for scrypt: N = 2^17, r = 8, p = 1 (128 MiB per hash). */
export const owaspScrypt: ScryptParameters = { logN: 17, blockSize: 8, parallelism: 1 }

/**
 * The same minimal defence in 16 MiB a hash: N = 2^14, r = 8, p = 5, one of the settings OWASP's
 * password storage cheat sheet lists beside `owaspScrypt`, trading memory for parallelism. The
 * default, because what each running hash holds is what a login flood adds to the process: at
 * 128 MiB a hash, RSS after the bench's flood was 289 MB. It also takes half the time (~130 ms
 * against ~270 ms here).
 */
export const owaspScryptLowMemory: ScryptParameters = { logN: 14, blockSize: 8, parallelism: 5 }

const keyLength = 32
const saltLength = 16
const encodedPattern = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/

const deriveOn =
  (threads: ReturnType<typeof makeHashingThreads>) =>
  (password: string, salt: Buffer, parameters: ScryptParameters): Effect.Effect<Buffer> => {
    const N = 2 ** parameters.logN
    const options = {
      N,
      r: parameters.blockSize,
      p: parameters.parallelism,
      maxmem: 256 * N * parameters.blockSize
    }
    // On hashing threads of the adapter's own, at the lowest priority (see hashing-threads.ts).
    return Effect.promise(() =>
      threads.hash({ password: password.normalize("NFC"), salt, keyLength, options })
    )
  }

const encode = (parameters: ScryptParameters, salt: Buffer, key: Buffer) =>
  `$scrypt$ln=${parameters.logN},r=${parameters.blockSize},p=${parameters.parallelism}$${salt.toString("base64").replace(/=+$/, "")}$${key.toString("base64").replace(/=+$/, "")}`

export interface HashingBound {
  /** Hashes run at once; each takes a core, and the memory of its parameters, for a while. */
  readonly concurrent: number
  /** Hashes that may wait for a turn; beyond them a request is refused at once (`HashingBusy`). */
  readonly queued: number
}

/**
 * One hash per core, leaving the event loop a core of its own where there are several: more at
 * once only made every other request wait behind them (a login flood took cheap reads from 9.7k
 * to 0.9k requests per second) and multiplied the memory they hold.
 */
export const defaultHashingBound = (): HashingBound => {
  const concurrent = Math.max(1, availableParallelism() - 1)
  return { concurrent, queued: concurrent * 32 }
}

const bounded = (bound: HashingBound) => {
  const permits = Semaphore.makeUnsafe(bound.concurrent)
  let waitingOrRunning = 0
  return <A>(work: Effect.Effect<A>): Effect.Effect<A, HashingBusy> =>
    Effect.suspend(() => {
      if (waitingOrRunning >= bound.concurrent + bound.queued) {
        return Effect.fail(new HashingBusy({ retryAfterSeconds: 1 }))
      }
      waitingOrRunning++
      return permits
        .withPermits(1)(work)
        .pipe(Effect.ensuring(Effect.sync(() => waitingOrRunning--)))
    })
}

/** Hashes in a PHC-style string that carries its own parameters, so they can be raised later. */
export const makeScryptPasswordHasher = (
  parameters: ScryptParameters = owaspScryptLowMemory,
  bound: HashingBound = defaultHashingBound()
) => {
  const limit = bounded(bound)
  const derive = deriveOn(makeHashingThreads(bound.concurrent))
  return PasswordHasher.of({
    hash: (password) =>
      Effect.gen(function* () {
        const salt = randomBytes(saltLength)
        return encode(parameters, salt, yield* limit(derive(Redacted.value(password), salt, parameters)))
      }),
    verify: (hash, password) =>
      Effect.gen(function* () {
        const parts = encodedPattern.exec(hash)
        // No password matches a hash of no form (an account single sign-on made): one is spent all
        // the same, so the answer comes as late as for a wrong password.
        if (parts === null) {
          yield* limit(derive(Redacted.value(password), randomBytes(saltLength), parameters))
          return false
        }
        const stored = { logN: Number(parts[1]), blockSize: Number(parts[2]), parallelism: Number(parts[3]) }
        const expected = Buffer.from(parts[5] ?? "", "base64")
        const actual = yield* limit(
          derive(Redacted.value(password), Buffer.from(parts[4] ?? "", "base64"), stored)
        )
        return expected.length === actual.length && timingSafeEqual(expected, actual)
      })
  })
}

export const scryptPasswordHasherLayer = (
  parameters: ScryptParameters = owaspScryptLowMemory,
  bound?: HashingBound
) => Layer.sync(PasswordHasher, () => makeScryptPasswordHasher(parameters, bound))
