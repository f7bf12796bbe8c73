import { Effect, Layer, Redacted } from "effect"
import { makeScryptPasswordHasher } from "../../adapters/crypto/index.ts"
import { addMember, PasswordHasher } from "../../core/index.ts"
import { fastScrypt, logInToSession, master, memberInput, roleWith } from "./roster.ts"

/** The address log-in attempts come from unless a test names another. */
export const client = "203.0.113.7"

export const attempt = (username: string, secret: string, from: string = client) =>
  logInToSession({ username, password: Redacted.make(secret), client: from })

/** Adds an active member `username`, with the shared test `password`, of a role with `team.read`. */
export const addActiveMember = (username = "alice") =>
  Effect.gen(function* () {
    const role = yield* roleWith(`${username}-role`, ["team.read"])
    return yield* addMember(master, memberInput(username, role.id))
  })

/** A scrypt hasher that counts its calls. */
export const countingHasher = () => {
  const calls = { hash: 0, verify: 0 }
  const inner = makeScryptPasswordHasher(fastScrypt)
  const layer = Layer.succeed(
    PasswordHasher,
    PasswordHasher.of({
      hash: (secret) =>
        Effect.sync(() => {
          calls.hash++
        }).pipe(Effect.andThen(inner.hash(secret))),
      verify: (hash, secret) =>
        Effect.sync(() => {
          calls.verify++
        }).pipe(Effect.andThen(inner.verify(hash, secret)))
    })
  )
  return { calls, layer }
}
