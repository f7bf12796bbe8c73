import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option, Schema } from "effect"
import {
  AddMemberInput,
  addMember,
  DuplicateEmail,
  DuplicateUsername,
  getMember,
  listMembers,
  Member,
  MemberId,
  MemberStore,
  PasswordHasher,
  permissionIdOf,
  RoleId,
  removeRole,
  UnknownRole
} from "../../core/index.ts"
import {
  assertForbidden,
  assertMissingPermission,
  assertNotFound,
  assertSingleWinner
} from "../support/assertions.ts"
import { countingHasher } from "../support/log-in.ts"
import { actorWith, master, memberInput, password, provideRoster, roleWith } from "../support/roster.ts"

interface UsernameAndEmail {
  readonly username: string
  readonly email: string
}

/** Adds `first` to a fresh role, then tries `second`; returns why the second was refused. */
const refusalOfSecondMember = Effect.fnUntraced(function* (
  first: UsernameAndEmail,
  second: UsernameAndEmail
) {
  const role = yield* roleWith("staff", [])
  yield* addMember(master, memberInput(first.username, role.id, { email: first.email }))
  const error = yield* Effect.flip(
    addMember(master, memberInput(second.username, role.id, { email: second.email }))
  )
  assert.lengthOf((yield* listMembers(master)).items, 1, "only the first member was added")
  return error
})

/** Twenty concurrent adds to one fresh role, the i-th adding `inputOf(i, roleId)`; returns each result. */
const concurrentAdds = Effect.fnUntraced(function* (inputOf: (i: number, roleId: number) => AddMemberInput) {
  const role = yield* roleWith("staff", [])
  return yield* Effect.all(
    Array.from({ length: 20 }, (_, i) => Effect.result(addMember(master, inputOf(i, role.id)))),
    { concurrency: "unbounded" }
  )
})

describe("addMember", () => {
  it.effect("returns the new member without any password material", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", [])
      const member = yield* addMember(master, memberInput("alice", role.id))

      assert.instanceOf(member, Member)
      assert.strictEqual(member.username, "alice")
      assert.strictEqual(member.roleId, role.id)
      for (const key of ["password", "passwordHash", "sessionEpoch"]) {
        assert.isFalse(key in member, `the member carries ${key}`)
      }
      const json = JSON.stringify(member)
      const parsed = JSON.parse(json) as Record<string, unknown>
      assert.notProperty(parsed, "password")
      assert.notProperty(parsed, "passwordHash")
      assert.notInclude(json.toLowerCase(), "password")
      assert.notInclude(json, password)
      assert.notInclude(json, "$scrypt$")

      // The store keeps a salted hash, never the password itself.
      const stored = yield* (yield* MemberStore).findAccount(member.id)
      assert.isTrue(Option.isSome(stored))
      if (Option.isSome(stored)) {
        assert.notStrictEqual(stored.value.passwordHash, password)
        assert.notInclude(stored.value.passwordHash, password)
        assert.match(stored.value.passwordHash, /^\$scrypt\$/)
      }
    }).pipe(provideRoster())
  )

  it.effect("stores the e-mail lower-cased", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", [])
      const member = yield* addMember(
        master,
        memberInput("alice", role.id, { email: "Alice.Smith@Example.COM" })
      )
      assert.strictEqual(member.email, "alice.smith@example.com")

      const stored = yield* (yield* MemberStore).findAccount(member.id)
      assert.strictEqual(Option.getOrUndefined(stored)?.email, "alice.smith@example.com")
      const fetched = yield* getMember(master, member.id)
      assert.strictEqual(fetched.email, "alice.smith@example.com")
    }).pipe(provideRoster())
  )

  it.effect("enables the account on creation and keeps the membership flag as given", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", [])
      const active = yield* addMember(master, memberInput("alice", role.id))
      const inactive = yield* addMember(master, memberInput("bob", role.id, { activestatus: false }))
      assert.isTrue(active.accountActiveStatus)
      assert.isTrue(active.activestatus)
      assert.isTrue(inactive.accountActiveStatus)
      assert.isFalse(inactive.activestatus)
    }).pipe(provideRoster())
  )

  it.effect("gives every member a distinct id", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", [])
      const names = ["amy", "ben", "cat", "dan", "eve", "fay", "gus", "hal"]
      const members = yield* Effect.forEach(names, (name) => addMember(master, memberInput(name, role.id)))
      assert.strictEqual(new Set(members.map((member) => member.id)).size, names.length)
      const listed = (yield* listMembers(master)).items
      assert.deepStrictEqual(
        listed.map((member) => member.id).sort(),
        members.map((member) => member.id).sort()
      )
    }).pipe(provideRoster())
  )

  it.effect.each([
    { first: "Bob@Example.com", second: "bob@example.com" },
    { first: "bob@example.com", second: "BOB@EXAMPLE.COM" },
    { first: "bob@example.com", second: "bob@example.com" }
  ])("rejects a duplicate e-mail ignoring case ($first then $second)", ({ first, second }) =>
    Effect.gen(function* () {
      const error = yield* refusalOfSecondMember(
        { username: "bob", email: first },
        { username: "bobby", email: second }
      )
      assert.instanceOf(error, DuplicateEmail)
      assert.strictEqual(error.email, "bob@example.com")
    }).pipe(provideRoster())
  )

  it.effect.each([
    { first: "carol", second: "carol" },
    { first: "carol", second: "Carol" },
    { first: "CAROL", second: "carol" }
  ])("rejects a duplicate username ignoring case ($first then $second)", ({ first, second }) =>
    Effect.gen(function* () {
      const error = yield* refusalOfSecondMember(
        { username: first, email: "carol@example.com" },
        { username: second, email: "another@example.com" }
      )
      assert.instanceOf(error, DuplicateUsername)
    }).pipe(provideRoster())
  )

  it.effect("refuses a taken e-mail or username, or an unknown role, before spending a password hash", () => {
    const { calls, layer } = countingHasher()
    return Effect.gen(function* () {
      const error = yield* refusalOfSecondMember(
        { username: "alice", email: "alice@example.com" },
        { username: "alicia", email: "ALICE@example.com" }
      )
      assert.instanceOf(error, DuplicateEmail)
      const role = yield* roleWith("crew", [])
      const again = yield* Effect.flip(
        addMember(master, memberInput("ALICE", role.id, { email: "new@example.com" }))
      )
      assert.instanceOf(again, DuplicateUsername)
      assert.instanceOf(yield* Effect.flip(addMember(master, memberInput("nomad", 999))), UnknownRole)
      assert.strictEqual(calls.hash, 1, "only the first member's password was hashed")
    }).pipe(Effect.provide(layer), provideRoster())
  })

  it.effect("a refused add, or one stopped before its write, leaves the role free to remove", () =>
    Effect.gen(function* () {
      const crew = yield* roleWith("crew", [])
      yield* addMember(master, memberInput("alice", (yield* roleWith("staff", [])).id))
      const taken = yield* Effect.flip(addMember(master, memberInput("alice", crew.id)))
      assert.instanceOf(taken, DuplicateEmail)
      const hashing = yield* Deferred.make<void>()
      const hasher = yield* PasswordHasher
      const stuck = PasswordHasher.of({
        ...hasher,
        hash: () => Effect.andThen(Deferred.succeed(hashing, undefined), Effect.never)
      })
      const adding = yield* Effect.forkChild(
        addMember(master, memberInput("bob", crew.id)).pipe(Effect.provideService(PasswordHasher, stuck))
      )
      yield* Deferred.await(hashing)
      yield* Fiber.interrupt(adding)
      // Neither left the role counted as held: it can go.
      assert.isTrue(Option.isSome(yield* Effect.option(removeRole(master, crew.id))))
    }).pipe(provideRoster())
  )

  it.effect("rejects an unknown role", () =>
    Effect.gen(function* () {
      yield* roleWith("staff", [])
      const error = yield* Effect.flip(addMember(master, memberInput("alice", 999)))
      assert.instanceOf(error, UnknownRole)
      assert.strictEqual(error.roleId, RoleId.make(999))
      assert.lengthOf((yield* listMembers(master)).items, 0)
    }).pipe(provideRoster())
  )

  it.effect.each([0, -1])("a roleId of %s is well formed but names no role: UnknownRole", (roleId) =>
    Effect.gen(function* () {
      const input = yield* Schema.decodeUnknownEffect(AddMemberInput)({
        username: "alice",
        email: "alice@example.com",
        password,
        activestatus: true,
        roleId
      })
      const error = yield* Effect.flip(addMember(master, input))
      assert.instanceOf(error, UnknownRole)
    }).pipe(provideRoster())
  )

  it.effect("forbids a member without team.members.write", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("actor", ["team.read"])
      const role = yield* roleWith("staff", [])
      const error = yield* Effect.flip(addMember(principal, memberInput("alice", role.id)))
      assertMissingPermission(error, "team.members.write")
      assert.lengthOf((yield* listMembers(master)).items, 1, "only the actor exists")
    }).pipe(provideRoster())
  )

  it.effect("forbids a member from adding someone to a role holding a permission they lack", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("actor", ["team.members.write", "team.read"])
      const stronger = yield* roleWith("stronger", ["team.read", "billing.subscribe"])
      const error = yield* Effect.flip(addMember(principal, memberInput("alice", stronger.id)))
      assertForbidden(error, "role_exceeds_own")
      assert.deepStrictEqual(error.permissionIds, [
        permissionIdOf("team.read"),
        permissionIdOf("billing.subscribe")
      ])
      assert.lengthOf((yield* listMembers(master)).items, 1, "only the actor exists")
    }).pipe(provideRoster())
  )

  it.effect("lets a member add someone to a role whose permissions are a subset of theirs", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("actor", ["team.members.write", "team.read"])
      const weaker = yield* roleWith("weaker", ["team.read"])
      const same = yield* roleWith("same", ["team.read", "team.members.write"])
      const empty = yield* roleWith("empty", [])
      const a = yield* addMember(principal, memberInput("alice", weaker.id))
      const b = yield* addMember(principal, memberInput("bob", same.id))
      const c = yield* addMember(principal, memberInput("carol", empty.id))
      assert.deepStrictEqual([a.roleId, b.roleId, c.roleId], [weaker.id, same.id, empty.id])
      assert.lengthOf((yield* listMembers(master)).items, 4)
    }).pipe(provideRoster())
  )

  it.effect("lets exactly one of many concurrent adds of one e-mail succeed", () =>
    Effect.gen(function* () {
      const results = yield* concurrentAdds((i, roleId) =>
        memberInput(`racer${i}`, roleId, { email: i % 2 === 0 ? "race@example.com" : "Race@Example.COM" })
      )
      const winner = assertSingleWinner(results, DuplicateEmail)
      const listed = (yield* listMembers(master)).items
      assert.lengthOf(listed, 1)
      assert.strictEqual(listed[0]?.id, winner.id)
    }).pipe(provideRoster())
  )

  it.effect("lets exactly one of many concurrent adds of one username succeed", () =>
    Effect.gen(function* () {
      const results = yield* concurrentAdds((i, roleId) =>
        memberInput(i % 2 === 0 ? "racer" : "RACER", roleId, { email: `racer${i}@example.com` })
      )
      assertSingleWinner(results, DuplicateUsername)
      assert.lengthOf((yield* listMembers(master)).items, 1)
    }).pipe(provideRoster())
  )
})

describe("listMembers and getMember", () => {
  it.effect("list every member, without password material", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", [])
      const alice = yield* addMember(master, memberInput("alice", role.id))
      const bob = yield* addMember(master, memberInput("bob", role.id))
      const listed = (yield* listMembers(master)).items
      assert.deepStrictEqual(
        listed.map((member) => member.username).sort(),
        [alice.username, bob.username].sort()
      )
      for (const member of listed) {
        assert.instanceOf(member, Member)
        assert.isFalse("passwordHash" in member)
      }
      assert.notInclude(JSON.stringify(listed), "$scrypt$")
    }).pipe(provideRoster())
  )

  it.effect("listing requires team.read", () =>
    Effect.gen(function* () {
      const without = yield* actorWith("writer", ["team.members.write"])
      const error = yield* Effect.flip(listMembers(without.principal))
      assertMissingPermission(error, "team.read")

      const reader = yield* actorWith("reader", ["team.read"])
      const listed = (yield* listMembers(reader.principal)).items
      assert.sameMembers(
        listed.map((member) => member.id),
        [without.member.id, reader.member.id]
      )
    }).pipe(provideRoster())
  )

  it.effect("get returns the member and requires team.read", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", [])
      const alice = yield* addMember(master, memberInput("alice", role.id))

      const without = yield* actorWith("writer", ["team.members.write"])
      const error = yield* Effect.flip(getMember(without.principal, alice.id))
      assertMissingPermission(error, "team.read")

      const reader = yield* actorWith("reader", ["team.read"])
      const fetched = yield* getMember(reader.principal, alice.id)
      assert.deepStrictEqual(fetched, alice)
      assert.isFalse("passwordHash" in fetched)
    }).pipe(provideRoster())
  )

  it.effect("get of an unknown id is NotFound", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(getMember(master, MemberId.make("no-such-member")))
      assertNotFound(error, "member", "no-such-member")
    }).pipe(provideRoster())
  )
})
