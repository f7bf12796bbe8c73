import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { addMember, DuplicateUsername, provisionUser, withSuffix } from "../../core/index.ts"
import { failureOf, master, memberInput, provideRoster, roleWith } from "../support/roster.ts"

const none = Option.none()
const base = "ada.example.com"

describe("a provisioned person's username", () => {
  // Each of these userNames makes the same username: what the pattern refuses at an end is trimmed.
  it.effect("is numbered past those taken, up to ten tries", () =>
    Effect.gen(function* () {
      const reader = yield* roleWith("reader", ["team.read"])
      yield* addMember(master, { ...memberInput(base, reader.id), email: "first@example.com" })
      const second = yield* provisionUser(master, { userName: "ada@example.com" }, none)
      assert.strictEqual(second.username, withSuffix(base, "2"))
      for (let n = 3; n <= 9; n++) {
        yield* addMember(master, {
          ...memberInput(withSuffix(base, String(n)), reader.id),
          email: `n${n}@example.com`
        })
      }
      const tenth = yield* provisionUser(
        master,
        { userName: "ada@example.com!", email: "ten@example.com" },
        none
      )
      assert.strictEqual(tenth.username, withSuffix(base, "10"), "the tenth try")
      const refused = failureOf(
        yield* Effect.exit(
          provisionUser(master, { userName: "!ada@example.com", email: "eleven@example.com" }, none)
        )
      )
      assert.instanceOf(refused, DuplicateUsername)
      assert.strictEqual((refused as DuplicateUsername).username, base)
    }).pipe(provideRoster())
  )
})
