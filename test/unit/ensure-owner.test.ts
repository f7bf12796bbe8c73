import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  AuditLog,
  addMember,
  CurrentOrganization,
  createOrganization,
  DuplicateEmail,
  DuplicateUsername,
  ensureOwner,
  MemberStore,
  OrganizationStore,
  PermissionCatalog,
  permissionsOfRole
} from "../../core/index.ts"
import { master, memberInput, password, provideRoster, roleWith } from "../support/roster.ts"

const owner = (username: string, email = `${username}@example.com`) =>
  ensureOwner({ username, email, password: Redacted.make(password) })

const ownerRoleRecorded = Effect.gen(function* () {
  const organization = yield* (yield* OrganizationStore).findById(yield* CurrentOrganization)
  return Option.getOrUndefined(organization)?.ownerRoleId
})

describe("ensureOwner", () => {
  it.effect("makes and records the Owner role holding the catalog, and a member in it, once", () =>
    Effect.gen(function* () {
      yield* roleWith("staff", ["team.read"])
      const first = yield* owner("ada", "Ada@Example.com")
      assert.strictEqual(first.outcome, "created")
      assert.strictEqual(yield* ownerRoleRecorded, first.roleId)
      assert.lengthOf(yield* permissionsOfRole(first.roleId), PermissionCatalog.length + 1) // and the marker of every permission
      assert.deepStrictEqual([first.member.email, first.member.roleId], ["ada@example.com", first.roleId])
      const again = yield* owner("ada")
      assert.deepStrictEqual(
        [again.outcome, again.roleId, again.member.id],
        ["unchanged", first.roleId, first.member.id]
      )
      const added = (yield* (yield* AuditLog).page({ action: "member.added" }, 10)).length
      assert.strictEqual(added, 1, "the second run recorded nothing")
    }).pipe(provideRoster())
  )

  it.effect("moves a member of another role into it, and a member of elsewhere joins it", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", ["team.read"])
      const bob = yield* addMember(master, memberInput("bob", staff.id))
      const moved = yield* owner("bob")
      assert.deepStrictEqual(
        [moved.outcome, moved.member.id, moved.member.roleId],
        ["moved", bob.id, moved.roleId]
      )
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const joined = yield* owner("bob").pipe(Effect.provideService(CurrentOrganization, acme.id))
      assert.strictEqual(joined.outcome, "joined")
      assert.strictEqual(joined.roleId, acme.ownerRoleId)
      const memberships = yield* (yield* MemberStore).membershipsOf(bob.id)
      assert.lengthOf(memberships, 2)
    }).pipe(provideRoster())
  )

  it.effect("refuses a username and an e-mail that two accounts hold, changing nothing", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      yield* addMember(master, memberInput("ada", staff.id))
      yield* addMember(master, memberInput("bob", staff.id))
      assert.instanceOf(yield* Effect.flip(owner("ada", "bob@example.com")), DuplicateEmail)
      assert.instanceOf(yield* Effect.flip(owner("carol", "ada@example.com")), DuplicateEmail)
      assert.instanceOf(yield* Effect.flip(owner("bob", "new@example.com")), DuplicateUsername)
      const members = yield* (yield* MemberStore).page({}, 10)
      assert.deepStrictEqual(
        members.map((member) => member.roleId),
        [staff.id, staff.id]
      )
    }).pipe(provideRoster())
  )

  it.effect("decides again when the member's role changes between its read and its move", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const other = yield* roleWith("other", [])
      const bob = yield* addMember(master, memberInput("bob", staff.id))
      const store = yield* MemberStore
      let interfered = false
      const racing = MemberStore.of({
        ...store,
        update: (...args) =>
          Effect.gen(function* () {
            if (!interfered) {
              interfered = true
              const [id, , , , entry] = args
              yield* store.update(id, staff.id, { roleId: other.id }, true, entry)
            }
            return yield* store.update(...args)
          })
      })
      const moved = yield* owner("bob").pipe(Effect.provideService(MemberStore, racing))
      assert.isTrue(interfered)
      assert.deepStrictEqual([moved.outcome, moved.member.roleId], ["moved", moved.roleId])
      const stored = Option.getOrThrow(yield* store.findById(bob.id))
      assert.strictEqual(
        stored.roleId,
        moved.roleId,
        "the member is in the Owner role, not left in the other"
      )
    }).pipe(provideRoster())
  )
})
