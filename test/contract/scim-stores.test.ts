import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  CurrentOrganization,
  DuplicateUsername,
  defaultOrganizationId,
  GroupProfile,
  MemberId,
  OrganizationId,
  PermissionId,
  ProvisioningStore,
  RoleId,
  ScimTokenId,
  ScimTokenRecord,
  ScimTokenStore,
  TokenHash,
  toScimToken,
  UserProfile
} from "../../core/index.ts"
import { assertEquals, at, valueOf } from "../support/contract.ts"
import { kitStoreKinds, storeKinds } from "../support/stores.ts"

const other = OrganizationId.make("org-other")
const inOther = Effect.provideService(CurrentOrganization, other)

const token = (n: number, organizationId = defaultOrganizationId) =>
  new ScimTokenRecord({
    id: ScimTokenId.make(`scim-${n}`),
    name: `IdP ${n}`,
    permissionIds: [PermissionId.make(1), PermissionId.make(n)],
    createdAt: at(n),
    organizationId,
    tokenHash: TokenHash.make(n.toString(16).padStart(64, "0"))
  })

const profile = (memberId: string, userName: string, second = 1) =>
  new UserProfile({
    memberId: MemberId.make(memberId),
    userName,
    externalId: `ext-${memberId}`,
    name: { givenName: "Ada", familyName: "Lovelace" },
    emailType: "work",
    emailPrimary: true,
    lastModified: at(second)
  })

describe.each(kitStoreKinds)("ScimTokenStore on %s", (_, stores) => {
  it.effect("lists an organisation's tokens oldest first, finds one by hash anywhere, revokes it once", () =>
    Effect.gen(function* () {
      const store = yield* ScimTokenStore
      yield* store.insert(token(2))
      yield* store.insert(token(1))
      yield* inOther(store.insert(token(3, other)))
      assert.deepStrictEqual(
        (yield* store.list).map((found) => found.id),
        ["scim-1", "scim-2"]
      )
      assertEquals(valueOf(yield* store.findByTokenHash(token(3).tokenHash)), token(3, other))
      assert.isTrue(
        Option.isNone(yield* store.revoke(ScimTokenId.make("scim-3"))),
        "not another organisation's"
      )
      assertEquals(valueOf(yield* store.revoke(ScimTokenId.make("scim-1"))), toScimToken(token(1)))
      assert.isTrue(Option.isNone(yield* store.revoke(ScimTokenId.make("scim-1"))))
      assert.isTrue(Option.isNone(yield* store.findByTokenHash(token(1).tokenHash)))
      yield* store.removeAll
      assert.deepStrictEqual(yield* store.list, [])
      assert.strictEqual((yield* inOther(store.list)).length, 1)
    }).pipe(Effect.provide(stores()))
  )
})

describe.each(storeKinds)("ProvisioningStore on %s", (_, stores) => {
  it.effect(
    "keeps a member's profile whole, in its organisation, its userName unique there ignoring case",
    () =>
      Effect.gen(function* () {
        const store = yield* ProvisioningStore
        const ada = profile("m-1", "Ada@Example.com")
        yield* store.putUser(ada)
        assertEquals(valueOf(yield* store.findUser(ada.memberId)), ada)
        assertEquals(valueOf(yield* store.findUserByUserName("ada@example.COM")), ada)
        assert.isTrue(Option.isNone(yield* inOther(store.findUser(ada.memberId))))
        const taken = yield* Effect.flip(store.putUser(profile("m-2", "ADA@example.com")))
        assert.instanceOf(taken, DuplicateUsername)
        yield* inOther(store.putUser(profile("m-2", "ada@example.com")))
        const renamed = profile("m-1", "ada.lovelace@example.com", 2)
        yield* store.putUser(renamed)
        assertEquals(valueOf(yield* store.findUser(ada.memberId)), renamed)
        assert.isTrue(Option.isNone(yield* store.findUserByUserName("ada@example.com")))
        yield* store.putUser(profile("m-3", "ada@example.com"))
        assert.deepStrictEqual((yield* store.users).map((found) => found.memberId).sort(), ["m-1", "m-3"])
        yield* store.removeUser(MemberId.make("m-3"))
        assert.deepStrictEqual(
          (yield* store.users).map((found) => found.memberId),
          ["m-1"]
        )
      }).pipe(Effect.provide(stores()))
  )

  it.effect("keeps a role's profile; removing every profile of an organisation leaves the others", () =>
    Effect.gen(function* () {
      const store = yield* ProvisioningStore
      const group = new GroupProfile({ roleId: RoleId.make(4), externalId: "g-4", lastModified: at(3) })
      yield* store.putGroup(group)
      yield* inOther(store.putGroup(new GroupProfile({ roleId: RoleId.make(4), lastModified: at(4) })))
      yield* inOther(store.putUser(profile("m-9", "nine@example.com")))
      assertEquals(valueOf(yield* store.findGroup(group.roleId)), group)
      assert.deepStrictEqual((yield* store.groups).length, 1)
      yield* store.putUser(profile("m-1", "one@example.com"))
      yield* store.removeAll
      assert.deepStrictEqual(yield* store.users, [])
      assert.deepStrictEqual(yield* store.groups, [])
      assert.strictEqual((yield* inOther(store.groups)).length, 1)
      assert.strictEqual((yield* inOther(store.users)).length, 1)
      yield* inOther(store.removeGroup(group.roleId))
      assert.isTrue(Option.isNone(yield* inOther(store.findGroup(group.roleId))))
    }).pipe(Effect.provide(stores()))
  )
})
