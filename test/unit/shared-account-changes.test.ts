import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { AccountShared, MemberStore, updateMember } from "../../core/index.ts"
import { adaSharedWithAcme, failureOf, master, provideRoster } from "../support/roster.ts"

const stored = (id: Parameters<typeof updateMember>[1]) =>
  Effect.gen(function* () {
    return Option.getOrThrow(yield* (yield* MemberStore).findById(id))
  })

describe("an account shared with another organisation", () => {
  it.effect("is changed account-wide by nobody bound to one organisation: its username and e-mail stay", () =>
    Effect.gen(function* () {
      const { ada, admin } = yield* adaSharedWithAcme
      for (const changes of [{ username: "countess" }, { email: "countess@example.com" }]) {
        const refused = failureOf(yield* Effect.exit(updateMember(admin, ada.id, changes)))
        assert.instanceOf(refused, AccountShared)
        assert.strictEqual((refused as AccountShared).memberId, ada.id)
      }
      const member = yield* stored(ada.id)
      assert.deepStrictEqual([member.username, member.email], ["ada", "ada@example.com"])
    }).pipe(provideRoster())
  )

  it.effect(
    "keeps its membership here the organisation's own to change, and the operator may change it all",
    () =>
      Effect.gen(function* () {
        const { ada, bob, admin } = yield* adaSharedWithAcme
        yield* updateMember(admin, ada.id, { activestatus: false })
        assert.isFalse((yield* stored(ada.id)).activestatus)
        yield* updateMember(admin, bob.id, { email: "robert@example.com", username: "robert" })
        assert.deepStrictEqual(
          [(yield* stored(bob.id)).username, (yield* stored(bob.id)).email],
          ["robert", "robert@example.com"]
        )
        yield* updateMember(master, ada.id, { email: "countess@example.com" })
        assert.strictEqual((yield* stored(ada.id)).email, "countess@example.com")
      }).pipe(provideRoster())
  )
})
