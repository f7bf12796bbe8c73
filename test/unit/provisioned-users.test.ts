import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  AccountShared,
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
import {
  actorWith,
  adaSharedWithAcme,
  failureOf,
  logInAs,
  logInToSession,
  master,
  memberInput,
  provideRoster,
  roleWith
} from "../support/roster.ts"

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

describe("replacing a user whose account is another organisation's too", () => {
  it.effect("changes its state here, but never its password, e-mail or name: those are refused whole", () =>
    Effect.gen(function* () {
      const { ada, admin } = yield* adaSharedWithAcme
      const replaceAs = (
        input: ProvisionedUserInput,
        secret = none as Option.Option<Redacted.Redacted<string>>
      ) => Effect.exit(replaceProvisionedUser(admin, ada.id, input, secret))
      for (const [input, secret] of [
        [{ userName: "ada", email: "countess@example.com" }, none],
        [{ userName: "countess" }, none],
        [{ userName: "ada", active: false }, Option.some(Redacted.make("a brand new passphrase"))]
      ] as const) {
        assert.instanceOf(failureOf(yield* replaceAs(input, secret)), AccountShared, JSON.stringify(input))
      }
      const untouched = Option.getOrThrow(yield* (yield* MemberStore).findById(ada.id))
      assert.deepStrictEqual(
        [untouched.username, untouched.email, untouched.activestatus],
        ["ada", "ada@example.com", true]
      )
      yield* logInAs("ada")
      yield* replaceProvisionedUser(admin, ada.id, { userName: "ada", active: false }, none)
      assert.isFalse(Option.getOrThrow(yield* (yield* MemberStore).findById(ada.id)).activestatus)
    }).pipe(provideRoster())
  )

  it.effect("sets the password of an account that is this organisation's alone", () =>
    Effect.gen(function* () {
      const { bob } = yield* adaSharedWithAcme
      const newPassword = Redacted.make("a brand new passphrase")
      yield* replaceProvisionedUser(master, bob.id, { userName: "bob" }, Option.some(newPassword))
      assert.strictEqual(yield* updatesRecorded, 0, "the same name and no state: the member is not changed")
      const session = yield* logInToSession({ username: "bob", password: newPassword, client: "127.0.0.1" })
      assert.strictEqual(session.member.id, bob.id)
    }).pipe(provideRoster())
  )

  it.effect("a userName that becomes the member's username already changes nothing of the member", () =>
    Effect.gen(function* () {
      yield* roleWith("reader", ["team.read"])
      const ada = yield* provisioned("ada@example.com")
      yield* replace(ada.id, { userName: "ada.example.com" })
      assert.strictEqual(yield* updatesRecorded, 0)
      const seen = yield* getProvisionedUser(master, ada.id)
      assert.strictEqual(seen.profile?.userName, "ada.example.com")
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
