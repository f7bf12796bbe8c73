// Uses Roster the way another service embeds it: only the package's public entry points.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option, Redacted, Schema } from "effect"
import { inMemoryRoster } from "roster/composition"
import {
  AddMemberInput,
  addMember,
  addRole,
  authenticate,
  checkReadiness,
  grantPermission,
  listMembers,
  logIn,
  type Principal,
  permissionIdOf
} from "roster/core"

const operator: Principal = { _tag: "Master" }

describe("embedding the core with the in-memory adapters", () => {
  it.effect("runs use cases end to end against the in-memory layer", () =>
    Effect.gen(function* () {
      const role = yield* addRole(operator, { name: "Readers", roleKey: "readers" })
      yield* grantPermission(operator, { roleId: role.id, permissionId: permissionIdOf("team.read") })
      const input = yield* Schema.decodeUnknownEffect(AddMemberInput)({
        username: "embedder",
        email: "Embedder@Example.com",
        password: "a long enough password",
        activestatus: true,
        roleId: role.id
      })
      const member = yield* addMember(operator, input)
      assert.strictEqual(member.email, "embedder@example.com")

      const { token } = yield* logIn({
        username: "embedder",
        password: Redacted.make("a long enough password"),
        client: "embedding-test"
      })
      const principal = yield* authenticate(Option.some(token))
      const members = (yield* listMembers(principal)).items
      assert.deepStrictEqual(
        members.map((m) => m.username),
        ["embedder"]
      )
      const denied = yield* Effect.exit(addRole(principal, { name: "Nope", roleKey: "nope" }))
      assert.isTrue(Exit.isFailure(denied))
    }).pipe(
      Effect.provide(
        inMemoryRoster({
          masterKey: "embedding-master-key",
          scrypt: { logN: 10, blockSize: 8, parallelism: 1 }
        })
      )
    )
  )

  it.effect("the in-memory store is always ready", () =>
    Effect.gen(function* () {
      assert.isTrue(Exit.isSuccess(yield* Effect.exit(checkReadiness())))
    }).pipe(Effect.provide(inMemoryRoster()))
  )

  it.effect("each provision of the layer starts from empty state", () =>
    Effect.gen(function* () {
      const members = (yield* listMembers(operator)).items
      assert.strictEqual(members.length, 0)
    }).pipe(Effect.provide(inMemoryRoster()))
  )
})
