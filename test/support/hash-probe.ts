// Run by Bun and Deno from the runtime tests: hashes at the default (OWASP) parameters and checks the event loop kept turning.
import { Effect, Redacted } from "effect"
import { makeScryptPasswordHasher } from "../../adapters/crypto/scrypt-password-hasher.ts"

const hasher = makeScryptPasswordHasher()
let ticks = 0
const timer = setInterval(() => ticks++, 2)
const hash = await Effect.runPromise(hasher.hash(Redacted.make("probe password")))
const accepted = await Effect.runPromise(hasher.verify(hash, Redacted.make("probe password")))
const rejected = await Effect.runPromise(hasher.verify(hash, Redacted.make("wrong password")))
clearInterval(timer)
console.log(JSON.stringify({ prefix: hash.slice(0, 22), accepted, rejected, ticks }))
