import { Effect, Result } from "effect"
import { masterPrincipal, syncPermissions } from "../../core/index.ts"
import { coreServices } from "../core-services.ts"
import { loadPermissionsFile } from "../permissions-file.ts"
import { fail, runCommand, storedSettings } from "./cli-support.ts"

export const permissionsUsage = `roster permissions sync FILE
  Declares the product permissions FILE lists ([{ "key": "projects.delete", "description": "…" }]),
  idempotently; those it does not list are kept (retire one with DELETE /api/v1/permissions/{key}).`

/** `roster permissions sync FILE`: the file's product permissions declared in the service's store. */
export const permissions = async (_values: unknown, positionals: ReadonlyArray<string>) => {
  const [action, file] = positionals
  if (action !== "sync" || file === undefined || positionals.length !== 2)
    fail(`Usage: ${permissionsUsage}`, 2)
  const entries = await runCommand(loadPermissionsFile(file))
  if (Result.isFailure(entries)) return fail(entries.failure.message, 2)
  const settings = await storedSettings("permissions sync")
  const done = await runCommand(
    syncPermissions(masterPrincipal, entries.success).pipe(
      Effect.provide(coreServices(settings)),
      Effect.scoped
    )
  )
  if (Result.isFailure(done)) return fail(`Not done: ${done.failure._tag}`)
  for (const declared of done.success) console.log(`permissions sync: ${declared.key} is id ${declared.id}`)
}
