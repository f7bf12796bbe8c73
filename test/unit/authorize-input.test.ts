import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import {
  AuthorizeInput,
  addMember,
  authorize,
  declarePermission,
  maxAuthorizationChecks,
  PermissionId,
  ProductPermissionStore,
  RoleLookup
} from "../../core/index.ts"
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

  it.effect("answers a check asked again with the very same answer, by key or id alike", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      const bob = yield* addMember(
        master,
        memberInput("bob", (yield* roleWith("auditors", ["audit.read"])).id)
      )
      const answers = yield* authorize(principal, {
        checks: [
          { permission: "audit.read", member: bob.id },
          { permission: "team.read" },
          { permission: PermissionId.make(8), member: bob.id },
          { permission: PermissionId.make(1) },
          { permission: "audit.read" }
        ]
      })
      assert.strictEqual(answers[0], answers[2], "made once, answered twice")
      assert.strictEqual(answers[1], answers[3])
      assert.notStrictEqual(answers[0], answers[4])
      assert.deepStrictEqual(
        answers.map((answer) => answer.reason),
        ["granted", "granted", "granted", "granted", "not_granted"]
      )
    }).pipe(provideRoster())
  )

  it.effect("reads the store for a product permission once, and not at all for Roster's alone", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      yield* declarePermission(master, "projects.delete", "")
      let reads = 0
      const counting = Effect.updateService(ProductPermissionStore, (store) => ({
        ...store,
        findByKey: (key) =>
          Effect.suspend(() => {
            reads++
            return store.findByKey(key)
          })
      }))
      yield* authorize(principal, {
        checks: [{ permission: "team.read" }, { permission: "audit.read" }]
      }).pipe(counting)
      assert.strictEqual(reads, 0, "Roster's own are known without the store")
      const checks = [
        { permission: "projects.delete" },
        { permission: "team.read" },
        { permission: "projects.delete" }
      ]
      const answers = yield* authorize(principal, { checks }).pipe(counting)
      assert.strictEqual(reads, 1)
      assert.deepStrictEqual(
        answers.map((answer) => answer.reason),
        ["not_granted", "granted", "not_granted"]
      )
    }).pipe(provideRoster())
  )
})
