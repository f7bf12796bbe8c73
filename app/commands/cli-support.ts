import { Effect, Result } from "effect"
import { loadSettings, type Settings } from "../settings.ts"

/** Ends the command with `message` on standard error. */
export function fail(message: string, code = 1): never {
  console.error(message)
  return process.exit(code)
}

/**
 * The service's settings, as `npm start` reads them; a command that changes what is stored refuses
 * the in-memory store, which would keep nothing once it ends.
 */
export const storedSettings = async (command: string): Promise<Settings> => {
  const settings = await Effect.runPromise(Effect.result(loadSettings))
  if (Result.isFailure(settings)) return fail(`Roster cannot start: ${settings.failure.message}`)
  if (settings.success.store.kind === "memory") {
    return fail(
      `ROSTER_STORE=memory keeps nothing once this command ends: run ${command} on the service's SQLite or MongoDB store`,
      2
    )
  }
  return settings.success
}

/** Runs a command's program, a store that cannot open (no SQLite driver here, say) saying why without a stack. */
export const runCommand = <A, E>(program: Effect.Effect<A, E>) =>
  Effect.runPromise(Effect.result(program)).catch((defect: unknown) =>
    fail(defect instanceof Error ? defect.message : String(defect))
  )
