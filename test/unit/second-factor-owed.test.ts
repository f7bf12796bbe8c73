import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { authenticate, owesSecondFactor, updateOrganization } from "../../core/index.ts"
import { actorWith, master, provideRoster } from "../support/roster.ts"

describe("a session owing its second factor", () => {
  it.effect("is a member's, in an organisation requiring one, without one enrolled; nobody else's", () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", ["team.read"])
      assert.isFalse(owesSecondFactor(ada.principal))
      yield* updateOrganization(master, { requireMfa: true })
      assert.isTrue(owesSecondFactor(yield* authenticate(Option.some(ada.token))))
      yield* updateOrganization(master, { requireMfa: false })
      assert.isFalse(owesSecondFactor(yield* authenticate(Option.some(ada.token))))
      assert.isFalse(owesSecondFactor(master))
      assert.isFalse(owesSecondFactor({ _tag: "OpenLocal" }))
    }).pipe(provideRoster())
  )
})
