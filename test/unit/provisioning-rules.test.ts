import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  addMember,
  DuplicateUsername,
  getProvisionedUser,
  listProvisionedGroups,
  listProvisionedUsers,
  MemberId,
  MemberStore,
  MissingField,
  NotFound,
  provisionGroup,
  provisionUser,
  RoleId,
  removeMember,
  removeProvisionedGroup,
  removeRole,
  replaceProvisionedGroup,
  replaceProvisionedUser,
  roleKeyFrom,
  updateOrganization,
  usernameFrom
} from "../../core/index.ts"
import { countingWrites } from "../support/member-writes.ts"
import {
  failureOf,
  master,
  memberInput,
  provideRoster,
  readersAdaAndBob,
  roleWith
} from "../support/roster.ts"

const none = Option.none()
const provisioned = (userName: string, email?: string) =>
  provisionUser(master, { userName, ...(email === undefined ? {} : { email }) }, none)
const roleOf = (id: MemberId) =>
  Effect.gen(function* () {
    return Option.getOrThrow(yield* (yield* MemberStore).findById(id)).roleId
  })

describe("names made from a provider's names", () => {
  it("a username collapses each run of refused characters, trims dots and dashes, and keeps three", () => {
    assert.strictEqual(usernameFrom("Ada  Lovelace!!"), "Ada-Lovelace")
    assert.strictEqual(usernameFrom("..ada@.."), "ada")
    assert.strictEqual(usernameFrom("-.-ada-.-"), "ada")
    assert.strictEqual(usernameFrom("abc"), "abc")
    assert.strictEqual(usernameFrom("ab"), "user-ab")
  })

  it("a role key is cut to 64 characters before its ends are trimmed", () => {
    assert.strictEqual(roleKeyFrom("a".repeat(80)), "a".repeat(64))
    assert.strictEqual(roleKeyFrom(`${"a".repeat(63)} b`), "a".repeat(63))
    assert.strictEqual(roleKeyFrom("  --Ops-- "), "ops")
  })
})

describe("the default role of provisioned members", () => {
  it.effect(
    "is the organisation's own choice while that role exists, else the lowest role of team.read alone",
    () =>
      Effect.gen(function* () {
        yield* roleWith("auditor", ["audit.read"])
        const readers = yield* roleWith("reader", ["team.read"])
        const chosen = yield* roleWith("chosen", ["team.read", "audit.read"])
        assert.strictEqual(yield* roleOf((yield* provisioned("ada@example.com")).id), readers.id)
        yield* updateOrganization(master, { defaultRoleId: chosen.id })
        assert.strictEqual(yield* roleOf((yield* provisioned("bob@example.com")).id), chosen.id)
        const spare = yield* roleWith("spare", ["team.read", "audit.read"])
        yield* updateOrganization(master, { defaultRoleId: spare.id })
        yield* removeRole(master, spare.id)
        assert.strictEqual(yield* roleOf((yield* provisioned("cy@example.com")).id), readers.id)
      }).pipe(provideRoster())
  )
})

describe("provisioning a user", () => {
  it.effect("takes a userName from a profile whose member is gone; a member's own refuses it", () =>
    Effect.gen(function* () {
      yield* roleWith("reader", ["team.read"])
      const ada = yield* provisioned("ada", "ada@example.com")
      const refused = failureOf(yield* Effect.exit(provisioned("ada", "other@example.com")))
      assert.instanceOf(refused, DuplicateUsername)
      assert.strictEqual((refused as DuplicateUsername).username, "ada")
      yield* removeMember(master, ada.id)
      const again = yield* provisioned("ada", "ada2@example.com")
      assert.strictEqual((yield* getProvisionedUser(master, again.id)).profile?.userName, "ada")
    }).pipe(provideRoster())
  )

  it.effect("needs an e-mail when the userName is none", () =>
    Effect.gen(function* () {
      yield* roleWith("reader", ["team.read"])
      const refused = failureOf(yield* Effect.exit(provisioned("ada")))
      assert.instanceOf(refused, MissingField)
      assert.deepStrictEqual(
        [(refused as MissingField).field, (refused as MissingField).purpose],
        ["email", "new_account"]
      )
      assert.lengthOf(yield* listProvisionedUsers(master), 0)
    }).pipe(provideRoster())
  )

  it.effect("lists each member with its profile and role; an unknown id is NotFound", () =>
    Effect.gen(function* () {
      const reader = yield* roleWith("reader", ["team.read"])
      const ada = yield* provisioned("ada@example.com")
      const [user] = yield* listProvisionedUsers(master)
      assert.strictEqual(user?.member.id, ada.id)
      assert.strictEqual(user?.profile?.userName, "ada@example.com")
      assert.strictEqual(user?.role?.id, reader.id)
      const missing = failureOf(yield* Effect.exit(getProvisionedUser(master, MemberId.make("nobody"))))
      assert.instanceOf(missing, NotFound)
      assert.deepStrictEqual([(missing as NotFound).entity, (missing as NotFound).id], ["member", "nobody"])
    }).pipe(provideRoster())
  )

  it.effect("a replacement that changes nothing of the member writes nothing to it", () =>
    Effect.gen(function* () {
      yield* roleWith("reader", ["team.read"])
      const ada = yield* provisioned("ada@example.com", "ada@example.com")
      const { writes } = yield* countingWrites(
        replaceProvisionedUser(
          master,
          ada.id,
          { userName: "ada@example.com", email: "ADA@example.com", active: true },
          none
        )
      )
      assert.deepStrictEqual(writes, [])
      const moved = yield* countingWrites(
        replaceProvisionedUser(master, ada.id, { userName: "ada@example.com", active: false }, none)
      )
      assert.deepStrictEqual(moved.writes, ["update"])
    }).pipe(provideRoster())
  )
})

describe("provisioned groups", () => {
  it.effect("list every holder of a role, and the profile of a group made by the provider", () =>
    Effect.gen(function* () {
      const { reader, ada, bob } = yield* readersAdaAndBob
      const sales = yield* provisionGroup(master, { displayName: "Sales", externalId: "x-1", memberIds: [] })
      const groups = yield* listProvisionedGroups(master)
      const readers = groups.find((group) => group.role.id === reader.id)
      assert.sameMembers([...(readers?.memberIds ?? [])], [ada.id, bob.id])
      assert.isUndefined(readers?.profile)
      assert.strictEqual(groups.find((group) => group.role.id === sales)?.profile?.externalId, "x-1")
    }).pipe(provideRoster())
  )

  it.effect("keeps who stays, and needs no default role when nobody leaves", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const ada = yield* addMember(master, memberInput("ada", staff.id))
      const bob = yield* addMember(master, memberInput("bob", staff.id))
      const group = yield* provisionGroup(master, { displayName: "Sales", memberIds: [ada.id] })
      yield* replaceProvisionedGroup(master, group, { displayName: "Sales", memberIds: [ada.id, bob.id] })
      assert.deepStrictEqual([yield* roleOf(ada.id), yield* roleOf(bob.id)], [group, group])
      const empty = yield* provisionGroup(master, { displayName: "Empty", memberIds: [] })
      yield* removeProvisionedGroup(master, empty)
      assert.deepStrictEqual([yield* roleOf(ada.id), yield* roleOf(bob.id)], [group, group])
      const unknown = failureOf(yield* Effect.exit(removeProvisionedGroup(master, RoleId.make(999))))
      assert.instanceOf(unknown, NotFound)
      assert.deepStrictEqual([(unknown as NotFound).entity, (unknown as NotFound).id], ["role", "999"])
    }).pipe(provideRoster())
  )
})
