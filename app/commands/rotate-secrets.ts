import { Effect, Result } from "effect"
import { resealSecrets } from "../../core/index.ts"
import { coreServices } from "../core-services.ts"
import { fail, runCommand, storedSettings } from "./cli-support.ts"

export const rotateSecretsUsage = `roster rotate-secrets [--batch N]
  Seals every stored secret (TOTP secrets, webhooks' signing secrets) again under the first key of
  ROSTER_SECRETS_KEY, N records at a time (100), so that the keys after it can be removed. Run it
  again at any time: it changes only what an older key sealed, and goes on where a stopped run left.`

/** `roster rotate-secrets`: every sealed secret sealed again under the first key, batch by batch. */
export const rotateSecrets = async (values: Record<string, string | boolean | undefined>) => {
  const batch = values.batch === undefined ? 100 : Number(values.batch)
  if (!Number.isInteger(batch) || batch < 1) fail(`Usage: ${rotateSecretsUsage}`, 2)
  const settings = await storedSettings("rotate-secrets")
  if (settings.secretsKeys.length === 0)
    fail("ROSTER_SECRETS_KEY is not set: there is no key to seal under", 2)
  const program = Effect.gen(function* () {
    const totals = { resealed: 0, current: 0, unreadable: 0 }
    let after: string | undefined
    do {
      const done = yield* resealSecrets(after, batch)
      totals.resealed += done.resealed
      totals.current += done.current
      totals.unreadable += done.unreadable
      after = done.next
      console.log(
        `rotate-secrets: ${totals.resealed} sealed again, ${totals.current} under the first key already${after === undefined ? "" : ", going on"}`
      )
    } while (after !== undefined)
    return totals
  })
  const done = await runCommand(program.pipe(Effect.provide(coreServices(settings)), Effect.scoped))
  if (Result.isFailure(done)) fail(`Not done: ${done.failure._tag}; run it again to go on`)
  if (done.success.unreadable > 0) {
    fail(
      `${done.success.unreadable} secrets are sealed under a key ROSTER_SECRETS_KEY no longer holds: put it back (after the first) and run rotate-secrets again`
    )
  }
  console.log("rotate-secrets: done; keys after the first may be removed from ROSTER_SECRETS_KEY")
}
