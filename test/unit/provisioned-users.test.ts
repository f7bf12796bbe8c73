import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  AuditLog,
  addMember,
  DuplicateUsername,
  Forbidden,
  findProvisionedUser,
  getProvisionedUser,
  MemberId,
  MemberStore,
  NotFound,
  type ProvisionedUserInput,
  provisionUser,
  replaceProvisionedUser
} from "../../core/index.ts"
import { actorWith, failureOf, master, memberInput, provideRoster, roleWith } from "../support/roster.ts"

const none = Option.none()

/** A member an identity provider made, through a role holding team.read alone (the default). */
const provisioned = (userName: string, input: Partial<ProvisionedUserInput> = {}) =>
  provisionUser(master, { userName, ...input }, none)

const updatesRecorded = Effect.gen(function* () {
  return (yield* (yield* AuditLog).page({ action: "member.updated" }, 50)).length
})

const replace = (id: MemberId, input: ProvisionedUserInput) => replaceProvisionedUser(master, id, input, none)

describe("replacing a provisioned user", () => {
  it.effect(
    "changes only what differs: an e-mail in another case, the same state and name change nothing",
    () =>
      Effect.gen(function* () {
        yield* roleWith("reader", ["team.read"])
        const ada = yield* provisioned("ada@example.com", { email: "ada@example.com", displayName: "Ada" })
        yield* replace(ada.id, { userName: "ADA@example.com", email: "Ada@Example.com", active: true })
        assert.strictEqual(yield* updatesRecorded, 0, "nothing of Roster's own fields changed")
        const seen = yield* getProvisionedUser(master, ada.id)
        assert.strictEqual(seen.profile?.userName, "ADA@example.com", "the profile is replaced all the same")
        assert.strictEqual(seen.profile?.displayName, undefined)
      }).pipe(provideRoster())
  )

  it.effect("an e-mail, a state and a userName that differ change the member, each once", () =>
    Effect.gen(function* () {
      yield* roleWith("reader", ["team.read"])
      const ada = yield* provisioned("ada@example.com", { email: "ada@example.com" })
      yield* replace(ada.id, { userName: "ada@example.com", email: "lovelace@example.com" })
      let member = Option.getOrThrow(yield* (yield* MemberStore).findById(ada.id))
      assert.deepStrictEqual([member.email, member.activestatus], ["lovelace@example.com", true])
      yield* replace(ada.id, { userName: "ada@example.com", active: false })
      member = Option.getOrThrow(yield* (yield* MemberStore).findById(ada.id))
      assert.deepStrictEqual([member.email, member.activestatus], ["lovelace@example.com", false])
      yield* replace(ada.id, { userName: "countess@example.com", active: false })
      member = Option.getOrThrow(yield* (yield* MemberStore).findById(ada.id))
      assert.strictEqual(member.username, "countess.example.com")
      assert.strictEqual(yield* updatesRecorded, 3)
    }).pipe(provideRoster())
  )

  it.effect(
    "refuses an unknown member, a userName another member's profile holds, and a caller without the right",
    () =>
      Effect.gen(function* () {
        yield* roleWith("reader", ["team.read"])
        const ada = yield* provisioned("ada@example.com")
        yield* provisioned("bob@example.com")
        assert.instanceOf(
          failureOf(yield* Effect.exit(replace(MemberId.make("nobody"), { userName: "x@example.com" }))),
          NotFound
        )
        assert.instanceOf(
          failureOf(yield* Effect.exit(replace(ada.id, { userName: "bob@example.com" }))),
          DuplicateUsername
        )
        const { principal } = yield* actorWith("reader2", ["team.read"])
        assert.instanceOf(
          failureOf(
            yield* Effect.exit(
              replaceProvisionedUser(principal, ada.id, { userName: "ada@example.com" }, none)
            )
          ),
          Forbidden
        )
        const member = Option.getOrThrow(yield* (yield* MemberStore).findById(ada.id))
        assert.strictEqual(member.username, "ada.example.com", "nothing changed")
      }).pipe(provideRoster())
  )
})

describe("finding a provisioned user by userName", () => {
  it.effect("by its profile's userName, else by a member's own username, never by another's name", () =>
    Effect.gen(function* () {
      const reader = yield* roleWith("reader", ["team.read"])
      const ada = yield* provisioned("Ada@Example.com")
      const bob = yield* addMember(master, memberInput("bob", reader.id))
      const found = (userName: string) =>
        findProvisionedUser(master, userName).pipe(Effect.map(Option.map((user) => user.member.id)))
      assert.deepStrictEqual(yield* found("ada@example.com"), Option.some(ada.id))
      assert.deepStrictEqual(yield* found("BOB"), Option.some(bob.id))
      assert.deepStrictEqual(yield* found("ada.example.com"), Option.none(), "a profile names it otherwise")
      assert.deepStrictEqual(yield* found("bob@example.com"), Option.none(), "an e-mail is not a username")
      assert.deepStrictEqual(yield* found("carol"), Option.none())
      const { principal } = yield* actorWith("nobody", [])
      assert.instanceOf(failureOf(yield* Effect.exit(findProvisionedUser(principal, "bob"))), Forbidden)
    }).pipe(provideRoster())
  )
})
