import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  AccountShared,
  MemberStore,
  resetMemberMfa,
  setAccountStatus,
  setMemberPassword,
  updateMember
} from "../../core/index.ts"
import { actorWith, adaSharedWithAcme, failureOf, master, provideRoster } from "../support/roster.ts"

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
        yield* updateMember(admin, bob.id, { username: "robert" })
        const { principal: accounts } = yield* actorWith("accounts", [
          "team.read",
          "team.members.write",
          "admin.accounts.write"
        ])
        yield* updateMember(accounts, bob.id, { email: "robert@example.com" })
        assert.deepStrictEqual(
          [(yield* stored(bob.id)).username, (yield* stored(bob.id)).email],
          ["robert", "robert@example.com"]
        )
        yield* updateMember(master, ada.id, { email: "countess@example.com" })
        assert.strictEqual((yield* stored(ada.id)).email, "countess@example.com")
      }).pipe(provideRoster())
  )

  it.effect(
    "keeps its password, its status and its second factor from an administrator bound to one organisation",
    () =>
      Effect.gen(function* () {
        const { ada, bob } = yield* adaSharedWithAcme
        const { principal: admin } = yield* actorWith("accounts", ["team.read", "admin.accounts.write"])
        const newPassword = Redacted.make("another long passphrase")
        for (const refused of [
          failureOf(yield* Effect.exit(setMemberPassword(admin, ada.id, { newPassword }))),
          failureOf(yield* Effect.exit(setAccountStatus(admin, { memberId: ada.id, active: false }))),
          failureOf(yield* Effect.exit(resetMemberMfa(admin, ada.id)))
        ]) {
          assert.instanceOf(refused, AccountShared)
          assert.strictEqual((refused as AccountShared).memberId, ada.id)
        }
        assert.isTrue((yield* stored(ada.id)).accountActiveStatus)
        yield* setAccountStatus(admin, { memberId: bob.id, active: false })
        assert.isFalse((yield* stored(bob.id)).accountActiveStatus, "an account that is theirs alone")
        yield* setAccountStatus(master, { memberId: ada.id, active: false })
        assert.isFalse((yield* stored(ada.id)).accountActiveStatus, "the operator changes any account")
      }).pipe(provideRoster())
  )
})
