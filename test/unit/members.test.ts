import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option, Redacted, Result, Schema } from "effect"
import {
  AddMemberInput,
  addMember,
  authenticate,
  DuplicateEmail,
  DuplicateUsername,
  Forbidden,
  getMember,
  listMembers,
  Member,
  MemberId,
  MemberStore,
  NotFound,
  type PermissionKey,
  permissionIdOf,
  RoleId,
  UnknownRole
} from "../../core/index.ts"
import { master, memberInput, password, provideRoster, roleWith, signedInMember } from "../support/roster.ts"

/** A signed-in member of a fresh role holding `permissions`, authenticated into a principal. */
const actorWith = Effect.fnUntraced(function* (username: string, permissions: ReadonlyArray<PermissionKey>) {
  const signedIn = yield* signedInMember(username, permissions)
  const principal = yield* authenticate(Option.some(signedIn.token))
  return { ...signedIn, principal }
})

describe("addMember", () => {
  it.effect("returns the new member without any password material", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", [])
      const member = yield* addMember(master, memberInput("alice", role.id))

      assert.instanceOf(member, Member)
      assert.strictEqual(member.username, "alice")
      assert.strictEqual(member.roleId, role.id)
      for (const key of ["password", "passwordHash", "sessionsValidAfter"]) {
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
      const stored = yield* (yield* MemberStore).findById(member.id)
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

      const stored = yield* (yield* MemberStore).findById(member.id)
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
      const listed = yield* listMembers(master)
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
      const role = yield* roleWith("staff", [])
      yield* addMember(master, memberInput("bob", role.id, { email: first }))
      const error = yield* Effect.flip(addMember(master, memberInput("bobby", role.id, { email: second })))
      assert.instanceOf(error, DuplicateEmail)
      assert.strictEqual(error.email, "bob@example.com")
      assert.lengthOf(yield* listMembers(master), 1)
    }).pipe(provideRoster())
  )

  it.effect.each([
    { first: "carol", second: "carol" },
    { first: "carol", second: "Carol" },
    { first: "CAROL", second: "carol" }
  ])("rejects a duplicate username ignoring case ($first then $second)", ({ first, second }) =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", [])
      yield* addMember(master, memberInput(first, role.id, { email: "carol@example.com" }))
      const error = yield* Effect.flip(
        addMember(master, memberInput(second, role.id, { email: "another@example.com" }))
      )
      assert.instanceOf(error, DuplicateUsername)
      assert.lengthOf(yield* listMembers(master), 1)
    }).pipe(provideRoster())
  )

  it.effect("rejects an unknown role", () =>
    Effect.gen(function* () {
      yield* roleWith("staff", [])
      const error = yield* Effect.flip(addMember(master, memberInput("alice", 999)))
      assert.instanceOf(error, UnknownRole)
      assert.strictEqual(error.roleId, RoleId.make(999))
      assert.lengthOf(yield* listMembers(master), 0)
    }).pipe(provideRoster())
  )

  it.effect("forbids a member without team.members.write", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("actor", ["team.read"])
      const role = yield* roleWith("staff", [])
      const error = yield* Effect.flip(addMember(principal, memberInput("alice", role.id)))
      assert.instanceOf(error, Forbidden)
      assert.strictEqual(error.reason, "missing_permission")
      assert.strictEqual(error.permission, "team.members.write")
      assert.lengthOf(yield* listMembers(master), 1, "only the actor exists")
    }).pipe(provideRoster())
  )

  it.effect("forbids a member from adding someone to a role holding a permission they lack", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("actor", ["team.members.write", "team.read"])
      const stronger = yield* roleWith("stronger", ["team.read", "billing.subscribe"])
      const error = yield* Effect.flip(addMember(principal, memberInput("alice", stronger.id)))
      assert.instanceOf(error, Forbidden)
      assert.strictEqual(error.reason, "role_exceeds_own")
      assert.deepStrictEqual(error.permissionIds, [
        permissionIdOf("team.read"),
        permissionIdOf("billing.subscribe")
      ])
      assert.lengthOf(yield* listMembers(master), 1, "only the actor exists")
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
      assert.lengthOf(yield* listMembers(master), 4)
    }).pipe(provideRoster())
  )

  it.effect("lets exactly one of many concurrent adds of one e-mail succeed", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", [])
      const attempts = Array.from({ length: 20 }, (_, i) =>
        Effect.result(
          addMember(
            master,
            memberInput(`racer${i}`, role.id, {
              email: i % 2 === 0 ? "race@example.com" : "Race@Example.COM"
            })
          )
        )
      )
      const results = yield* Effect.all(attempts, { concurrency: "unbounded" })
      const successes = results.filter(Result.isSuccess)
      const failures = results.filter(Result.isFailure)
      assert.lengthOf(successes, 1)
      assert.lengthOf(failures, 19)
      for (const failure of failures) assert.instanceOf(failure.failure, DuplicateEmail)
      const listed = yield* listMembers(master)
      assert.lengthOf(listed, 1)
      assert.strictEqual(listed[0]?.id, successes[0]?.success.id)
    }).pipe(provideRoster())
  )

  it.effect("lets exactly one of many concurrent adds of one username succeed", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", [])
      const attempts = Array.from({ length: 20 }, (_, i) =>
        Effect.result(
          addMember(
            master,
            memberInput(i % 2 === 0 ? "racer" : "RACER", role.id, { email: `racer${i}@example.com` })
          )
        )
      )
      const results = yield* Effect.all(attempts, { concurrency: "unbounded" })
      assert.lengthOf(results.filter(Result.isSuccess), 1)
      const failures = results.filter(Result.isFailure)
      assert.lengthOf(failures, 19)
      for (const failure of failures) assert.instanceOf(failure.failure, DuplicateUsername)
      assert.lengthOf(yield* listMembers(master), 1)
    }).pipe(provideRoster())
  )
})

describe("AddMemberInput", () => {
  const valid = {
    username: "alice",
    email: "alice@example.com",
    password: "long enough password",
    activestatus: true,
    roleId: 1
  }
  const decode = Schema.decodeUnknownExit(AddMemberInput)

  it("accepts a well-formed input and wraps the password", () => {
    const exit = decode(valid)
    assert.isTrue(Exit.isSuccess(exit))
    if (Exit.isSuccess(exit)) {
      assert.isTrue(Redacted.isRedacted(exit.value.password))
      assert.strictEqual(Redacted.value(exit.value.password), valid.password)
      assert.notInclude(String(exit.value.password), valid.password)
    }
  })

  it.each([
    ["username of 3 characters", { username: "abc" }],
    ["username of 64 characters", { username: "a".repeat(64) }],
    ["username with dots, dashes and underscores", { username: "A.b_c-9" }],
    ["password of 8 characters", { password: "12345678" }],
    ["password of 256 characters", { password: "p".repeat(256) }],
    ["sub-domain e-mail", { email: "a.b+c@mail.example.co.uk" }],
    ["inactive membership", { activestatus: false }]
  ])("accepts a %s", (_, override) => {
    assert.isTrue(Exit.isSuccess(decode({ ...valid, ...override })))
  })

  it.each([
    ["a username of 2 characters", { username: "ab" }],
    ["an empty username", { username: "" }],
    ["a username of 65 characters", { username: "a".repeat(65) }],
    ["a username with a space", { username: "bad name" }],
    ["a username with a slash", { username: "bad/name" }],
    ["a username with an @", { username: "bad@name" }],
    ["a username with a non-ASCII letter", { username: "élodie" }],
    ["a numeric username", { username: 12345 }],
    ["an e-mail without @", { email: "not-an-email" }],
    ["an e-mail without a domain dot", { email: "a@example" }],
    ["an e-mail without a local part", { email: "@example.com" }],
    ["an e-mail with a space", { email: "a b@example.com" }],
    ["an e-mail with two @", { email: "a@b@example.com" }],
    ["an e-mail over 254 characters", { email: `${"a".repeat(250)}@example.com` }],
    ["an empty e-mail", { email: "" }],
    ["a password of 7 characters", { password: "1234567" }],
    ["an empty password", { password: "" }],
    ["a password of 257 characters", { password: "p".repeat(257) }],
    ["a numeric password", { password: 12345678 }],
    ["a fractional roleId", { roleId: 1.5 }],
    ["a zero roleId", { roleId: 0 }],
    ["a negative roleId", { roleId: -1 }],
    ["a string roleId", { roleId: "1" }],
    ["a NaN roleId", { roleId: Number.NaN }],
    ["an infinite roleId", { roleId: Number.POSITIVE_INFINITY }],
    ["a null roleId", { roleId: null }],
    ["a string activestatus", { activestatus: "true" }],
    ["a numeric activestatus", { activestatus: 1 }]
  ])("rejects %s", (_, override) => {
    assert.isTrue(Exit.isFailure(decode({ ...valid, ...override })))
  })

  it.each(["username", "email", "password", "activestatus", "roleId"])(
    "rejects an input without %s",
    (key) => {
      const input: Record<string, unknown> = { ...valid }
      delete input[key]
      assert.isTrue(Exit.isFailure(decode(input)))
    }
  )

  it.effect("fails decodeUnknownEffect with a SchemaError", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Schema.decodeUnknownEffect(AddMemberInput)({ ...valid, roleId: "x" }))
      assert.isTrue(Schema.isSchemaError(error))
    })
  )
})

describe("listMembers and getMember", () => {
  it.effect("list every member, without password material", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", [])
      const alice = yield* addMember(master, memberInput("alice", role.id))
      const bob = yield* addMember(master, memberInput("bob", role.id))
      const listed = yield* listMembers(master)
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
      assert.instanceOf(error, Forbidden)
      assert.strictEqual(error.reason, "missing_permission")
      assert.strictEqual(error.permission, "team.read")

      const reader = yield* actorWith("reader", ["team.read"])
      const listed = yield* listMembers(reader.principal)
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
      assert.instanceOf(error, Forbidden)
      assert.strictEqual(error.reason, "missing_permission")
      assert.strictEqual(error.permission, "team.read")

      const reader = yield* actorWith("reader", ["team.read"])
      const fetched = yield* getMember(reader.principal, alice.id)
      assert.deepStrictEqual(fetched, alice)
      assert.isFalse("passwordHash" in fetched)
    }).pipe(provideRoster())
  )

  it.effect("get of an unknown id is NotFound", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(getMember(master, MemberId.make("no-such-member")))
      assert.instanceOf(error, NotFound)
      assert.strictEqual(error.entity, "member")
      assert.strictEqual(error.id, "no-such-member")
    }).pipe(provideRoster())
  )
})
