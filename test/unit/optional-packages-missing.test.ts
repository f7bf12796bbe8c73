import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer } from "effect"
import { loadedWhenBuilt } from "../../adapters/runtime/loaded-when-built.ts"

const needs = { name: "mongodb", feature: "The MongoDB store (MONGODB_URI)" }

const buildWith = (failure: unknown) =>
  Effect.runPromiseExit(
    Layer.build(
      loadedWhenBuilt(
        () => Promise.reject(failure),
        () => Layer.empty,
        needs
      )
    ).pipe(Effect.scoped)
  )

const messageOf = (exit: Exit.Exit<unknown, unknown>) =>
  Exit.isFailure(exit) ? String((Cause.squash(exit.cause) as Error).message) : ""

describe("a layer whose optional package is missing", () => {
  it("fails naming the package to install and the feature that needs it", async () => {
    for (const missing of [
      Object.assign(
        new Error("Cannot find package 'mongodb' imported from /srv/roster/adapters/mongodb/driver.ts"),
        {
          code: "ERR_MODULE_NOT_FOUND"
        }
      ),
      new Error('Cannot find module "mongodb" from "/srv/roster/adapters/mongodb/driver.ts"')
    ]) {
      const message = messageOf(await buildWith(missing))
      assert.include(message, "npm install mongodb")
      assert.include(message, "MONGODB_URI")
    }
  })

  it("keeps any other failure as it was", async () => {
    const message = messageOf(await buildWith(new Error("Cannot find package 'tslib' imported from x")))
    assert.include(message, "tslib")
    assert.notInclude(message, "npm install")
  })
})
