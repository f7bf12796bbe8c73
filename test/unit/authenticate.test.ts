import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { inMemoryRoster } from "../../app/roster-layer.ts"
import {
  addRole,
  authenticate,
  grantPermission,
  type PermissionKey,
  type Principal,
  permissionIdOf,
  removePermission,
  setAccountStatus
} from "../../core/index.ts"
import { fastScrypt, master, masterKey, provideRoster, signedInMember, testPlans } from "../support/roster.ts"

/** The roster with no master key configured at all: open local mode. */
const provideOpenLocal = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.provide(self, inMemoryRoster({ plans: testPlans, scrypt: fastScrypt }))

const bearer = (token: string) => Option.some(Redacted.make(token))

const idsOf = (keys: ReadonlyArray<PermissionKey>) => keys.map(permissionIdOf).sort((a, b) => a - b)

const sortedIds = (principal: Principal) => {
  assert.strictEqual(principal._tag, "Member")
  return principal._tag === "Member" ? [...principal.permissionIds].sort((a, b) => a - b) : []
}

describe("authenticate", () => {
  describe("without a master key (open local mode)", () => {
    it.effect("a caller without a bearer token acts as the OpenLocal principal", () =>
      Effect.gen(function* () {
        const principal = yield* authenticate(Option.none())
        assert.deepStrictEqual(principal, { _tag: "OpenLocal" })
      }).pipe(provideOpenLocal)
    )

    it.effect("a bearer token that is no session is rejected, not treated as open access", () =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(authenticate(bearer(masterKey)))
        assert.strictEqual(error._tag, "Unauthenticated")
        if (error._tag === "Unauthenticated") assert.strictEqual(error.reason, "invalid")
      }).pipe(provideOpenLocal)
    )

    it.effect("session tokens still identify their member", () =>
      Effect.gen(function* () {
        const { member, token } = yield* signedInMember("olga", ["team.read"])
        const principal = yield* authenticate(Option.some(token))
        assert.strictEqual(principal._tag, "Member")
        if (principal._tag === "Member") assert.strictEqual(principal.member.id, member.id)
      }).pipe(provideOpenLocal)
    )
  })

  describe("with a master key", () => {
    it.effect("a caller without a bearer token is Unauthenticated (missing)", () =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(authenticate(Option.none()))
        assert.strictEqual(error._tag, "Unauthenticated")
        if (error._tag === "Unauthenticated") assert.strictEqual(error.reason, "missing")
      }).pipe(provideRoster())
    )

    it.effect("the master key authenticates as the Master principal", () =>
      Effect.gen(function* () {
        const principal = yield* authenticate(bearer(masterKey))
        assert.deepStrictEqual(principal, { _tag: "Master" })
      }).pipe(provideRoster())
    )

    it.effect("a different master key configuration does not accept the test key", () =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(authenticate(bearer(masterKey)))
        assert.strictEqual(error._tag, "Unauthenticated")
      }).pipe(provideRoster({ masterKey: "another-master-key-entirely" }))
    )

    it.effect.each([
      { name: "an unknown token", token: "rss_not-a-real-session-token-at-all" },
      { name: "the master key with a changed case", token: masterKey.toUpperCase() },
      { name: "a prefix of the master key", token: masterKey.slice(0, -1) },
      { name: "the master key with a trailing space", token: `${masterKey} ` },
      { name: "an empty token", token: "" }
    ])("$name is Unauthenticated (invalid)", ({ token }) =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(authenticate(bearer(token)))
        assert.strictEqual(error._tag, "Unauthenticated")
        if (error._tag === "Unauthenticated") assert.strictEqual(error.reason, "invalid")
      }).pipe(provideRoster())
    )

    it.effect("a session token authenticates as its member with the role's permission ids", () =>
      Effect.gen(function* () {
        const keys: ReadonlyArray<PermissionKey> = ["team.read", "billing.read", "billing.subscribe"]
        const { member, role, token } = yield* signedInMember("alice", keys)
        const principal = yield* authenticate(Option.some(token))
        assert.strictEqual(principal._tag, "Member")
        if (principal._tag !== "Member") return
        assert.strictEqual(principal.member.id, member.id)
        assert.strictEqual(principal.member.roleId, role.id)
        assert.deepStrictEqual(sortedIds(principal), idsOf(keys))
        // The principal carries the public member, never the password hash.
        assert.isFalse("passwordHash" in principal.member)
      }).pipe(provideRoster())
    )

    it.effect("each member gets the permissions of their own role only", () =>
      Effect.gen(function* () {
        const alice = yield* signedInMember("alice", ["team.read"])
        const bob = yield* signedInMember("bob", ["billing.read", "billing.subscribe"])
        assert.deepStrictEqual(sortedIds(yield* authenticate(Option.some(alice.token))), idsOf(["team.read"]))
        assert.deepStrictEqual(
          sortedIds(yield* authenticate(Option.some(bob.token))),
          idsOf(["billing.read", "billing.subscribe"])
        )
      }).pipe(provideRoster())
    )

    it.effect("a member of a role without any grants has no permissions", () =>
      Effect.gen(function* () {
        const { token } = yield* signedInMember("nobody", [])
        assert.deepStrictEqual(sortedIds(yield* authenticate(Option.some(token))), [])
      }).pipe(provideRoster())
    )

    it.effect("the member principal's permissions follow later grants and removals", () =>
      Effect.gen(function* () {
        const { role, token } = yield* signedInMember("carol", ["team.read"])
        assert.deepStrictEqual(sortedIds(yield* authenticate(Option.some(token))), idsOf(["team.read"]))

        const detail = yield* grantPermission(master, {
          roleId: role.id,
          permissionId: permissionIdOf("billing.read")
        })
        assert.deepStrictEqual(
          sortedIds(yield* authenticate(Option.some(token))),
          idsOf(["team.read", "billing.read"])
        )

        yield* removePermission(master, { id: detail.id, permissionId: permissionIdOf("team.read") })
        assert.deepStrictEqual(sortedIds(yield* authenticate(Option.some(token))), idsOf(["billing.read"]))
      }).pipe(provideRoster())
    )

    it.effect("a grant to another role does not leak into the member's permissions", () =>
      Effect.gen(function* () {
        const { token } = yield* signedInMember("dave", ["team.read"])
        const other = yield* addRole(master, { name: "Other", roleKey: "other" })
        yield* grantPermission(master, {
          roleId: other.id,
          permissionId: permissionIdOf("billing.subscribe")
        })
        assert.deepStrictEqual(sortedIds(yield* authenticate(Option.some(token))), idsOf(["team.read"]))
      }).pipe(provideRoster())
    )

    it.effect("a session of a deactivated account no longer authenticates", () =>
      Effect.gen(function* () {
        const { member, token } = yield* signedInMember("erin", ["team.read"])
        yield* setAccountStatus(master, { memberId: member.id, active: false })
        const error = yield* Effect.flip(authenticate(Option.some(token)))
        assert.strictEqual(error._tag, "Unauthenticated")
      }).pipe(provideRoster())
    )
  })
})
