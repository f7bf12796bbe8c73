import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { AuthorizeInput, addMember, authorize, maxAuthorizationChecks, RoleLookup } from "../../core/index.ts"
import { actorWith, master, memberInput, provideRoster, roleWith } from "../support/roster.ts"

const decodes = (checks: number) =>
  Option.isSome(
    Schema.decodeUnknownOption(AuthorizeInput)({
      checks: Array.from({ length: checks }, () => ({ permission: "team.read" }))
    })
  )

describe("an authorize question", () => {
  it("holds 1 to 100 checks", () => {
    assert.strictEqual(maxAuthorizationChecks, 100)
    assert.isFalse(decodes(0), "no check")
    assert.isTrue(decodes(1))
    assert.isTrue(decodes(100))
    assert.isFalse(decodes(101), "101 checks")
  })

  it("names a permission by key or id, and a member by any string", () => {
    const decode = Schema.decodeUnknownOption(AuthorizeInput)
    assert.isTrue(Option.isSome(decode({ checks: [{ permission: 1, member: "anything at all" }] })))
    assert.isTrue(Option.isNone(decode({ checks: [{ permission: true }] })))
    assert.isTrue(Option.isNone(decode({ checks: [{ permission: "team.read", member: 7 }] })))
  })

  it.effect("answers a member whose role cannot be read inactive, holding nothing", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      const auditors = yield* roleWith("auditors", ["audit.read"])
      const bob = yield* addMember(master, memberInput("bob", auditors.id))
      const answers = yield* authorize(principal, {
        checks: [{ permission: "audit.read", member: bob.id }]
      }).pipe(
        Effect.updateService(RoleLookup, (lookup) => ({
          ...lookup,
          find: (id) => (id === auditors.id ? Effect.succeedNone : lookup.find(id))
        }))
      )
      assert.deepStrictEqual(answers, [
        { permission: "audit.read", member: bob.id, allowed: false, reason: "inactive" }
      ])
    }).pipe(provideRoster())
  )
})
