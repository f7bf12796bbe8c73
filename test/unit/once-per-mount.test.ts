import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { EdgeRequest, oncePerMount, type Routed } from "../../adapters/http/edge/routed.ts"

const at = (mountPath: string): Routed => ({
  requestId: "r",
  path: "/api/v1/docs",
  connection: { mountPath },
  bearer: Option.none(),
  organization: undefined
})

describe("what is made once per mount path", () => {
  it.effect("is made once for each path, and again only after sixteen others pushed it out", () =>
    Effect.gen(function* () {
      const made: Array<string> = []
      const page = oncePerMount((mountPath) => {
        made.push(mountPath)
        return `page under ${mountPath}`
      })
      const under = (mountPath: string) => Effect.provideService(page, EdgeRequest, at(mountPath))
      assert.strictEqual(yield* under("/roster"), "page under /roster")
      assert.strictEqual(yield* under("/roster"), "page under /roster")
      assert.strictEqual(yield* page, "page under ", "no edge: the root")
      assert.deepStrictEqual(made, ["/roster", ""])
      for (let tenant = 0; tenant < 16; tenant++) yield* under(`/t${tenant}/roster`)
      yield* under("/roster")
      assert.strictEqual(made.filter((path) => path === "/roster").length, 2, "kept no more than sixteen")
    })
  )
})
