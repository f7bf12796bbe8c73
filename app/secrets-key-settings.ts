import { Config, Effect, Option, Redacted } from "effect"
import { readEnvironment, refuse } from "./startup-error.ts"

const minimumKeyLength = 32

const environment = Config.all({
  secretsKey: Config.Redacted("ROSTER_SECRETS_KEY").pipe(Config.option)
})

/**
 * `ROSTER_SECRETS_KEY`: the keys secrets Roster reads back (TOTP secrets) are kept encrypted
 * under, comma-separated: the first seals, each opens, so a key is rotated by putting a new one
 * first and keeping the old until nothing it sealed is left. Each is at least 32 characters.
 */
export const loadSecretsKeys = Effect.gen(function* () {
  const { secretsKey } = yield* readEnvironment(environment)
  if (Option.isNone(secretsKey)) return []
  const keys = Redacted.value(secretsKey.value)
    .split(",")
    .map((key) => key.trim())
    .filter((key) => key !== "")
  if (keys.length === 0 || keys.some((key) => key.length < minimumKeyLength)) {
    return yield* refuse(
      `ROSTER_SECRETS_KEY must hold keys of at least ${minimumKeyLength} characters each, comma-separated (the first encrypts)`
    )
  }
  return keys.map((key) => Redacted.make(key))
})
