import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  AlreadyMember,
  CurrentOrganization,
  MemberId,
  MemberRecord,
  MemberStore,
  OrganizationId
} from "../../core/index.ts"
import { assertEquals, memberRecord, roles, valueOf, viewOf, withRoles } from "../support/contract.ts"
import { storeKinds } from "../support/stores.ts"

const other = OrganizationId.make("org-other")
const inOther = Effect.provideService(CurrentOrganization, other)

/** Ada, a member of the default organisation, who joins the other one in its role. */
const adaInBoth = Effect.gen(function* () {
  const members = yield* MemberStore
  const ada = memberRecord("ada", { sessionEpoch: 4 })
  yield* members.insert(ada)
  const joining = new MemberRecord({
    ...viewOf(ada),
    organizationId: other,
    roleId: roles.others,
    sessionEpoch: 0
  })
  assert.isTrue(yield* inOther(members.join(joining)))
  return { ada, members }
})

describe.each(storeKinds)("accounts shared between organisations on %s", (_, stores) => {
  it.effect("an account joins another organisation once; each membership is its own", () =>
    Effect.gen(function* () {
      const { ada, members } = yield* adaInBoth
      const there = valueOf(yield* inOther(members.findById(ada.id)))
      assert.strictEqual(there.username, "ada")
      assert.strictEqual(there.roleId, roles.others)
      assertEquals(valueOf(yield* members.findById(ada.id)), viewOf(ada), "the first membership is unchanged")
      const again = yield* Effect.flip(inOther(members.join(there)))
      assert.instanceOf(again, AlreadyMember)
      assert.deepStrictEqual(
        (yield* members.membershipsOf(ada.id)).map((membership) => [
          membership.organizationId,
          membership.roleId
        ]),
        [
          ["default", 1],
          [other, roles.others]
        ]
      )
      const stranger = new MemberRecord({ ...there, id: MemberId.make("nobody") })
      assert.isFalse(yield* inOther(members.join(stranger)), "no account, no membership")
      assert.deepStrictEqual(yield* members.membershipsOf(MemberId.make("nobody")), [])
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("a member is found with every membership of its account, in its own organisation only", () =>
    Effect.gen(function* () {
      const { ada, members } = yield* adaInBoth
      const here = valueOf(yield* members.findWithMemberships(ada.id))
      assertEquals(here.member, valueOf(yield* members.findById(ada.id)))
      assert.deepStrictEqual(here.memberships, yield* members.membershipsOf(ada.id))
      assert.lengthOf(here.memberships, 2)
      const there = valueOf(yield* inOther(members.findWithMemberships(ada.id)))
      assert.strictEqual(there.member.roleId, roles.others)
      yield* members.insert(memberRecord("grace"))
      const grace = MemberId.make("member-grace")
      assert.isTrue(Option.isNone(yield* inOther(members.findWithMemberships(grace))), "not a member there")
      assert.isTrue(Option.isNone(yield* members.findWithMemberships(MemberId.make("nobody"))))
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("an account's change shows in every organisation; a membership's in its own only", () =>
    Effect.gen(function* () {
      const { ada, members } = yield* adaInBoth
      yield* members.updateAccount(ada.id, { username: "lovelace", email: "lovelace@example.com" })
      const there = valueOf(yield* inOther(members.findById(ada.id)))
      assert.deepStrictEqual([there.username, there.email], ["lovelace", "lovelace@example.com"])
      assert.lengthOf(yield* inOther(members.page({ q: "love" }, 10)), 1, "found there by the new name")

      const epochThere = there.sessionEpoch
      const moved = valueOf(yield* members.update(ada.id, roles.first, { activestatus: false }, true))
      assert.strictEqual(moved.sessionEpoch, 5, "the membership's sessions end here")
      assert.strictEqual(valueOf(yield* inOther(members.findById(ada.id))).sessionEpoch, epochThere)
      assert.isTrue(valueOf(yield* inOther(members.findById(ada.id))).activestatus, "and only here")

      yield* members.setPassword(ada.id, "$scrypt$new")
      assert.strictEqual(valueOf(yield* inOther(members.findById(ada.id))).sessionEpoch, epochThere + 1)
      assert.strictEqual(valueOf(yield* members.findById(ada.id)).sessionEpoch, 6)

      assert.strictEqual(yield* inOther(members.countActive), 1)
      yield* members.setAccountStatus(ada.id, false)
      const disabled = valueOf(yield* inOther(members.findById(ada.id)))
      assert.isFalse(disabled.accountActiveStatus)
      assert.strictEqual(disabled.sessionEpoch, epochThere + 2)
      assert.strictEqual(yield* inOther(members.countActive), 0, "no seat anywhere")
      yield* inOther(members.setAccountStatus(ada.id, true))
      assert.isTrue(valueOf(yield* members.findById(ada.id)).accountActiveStatus)
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("the account goes with its last membership, not before", () =>
    Effect.gen(function* () {
      const { ada, members } = yield* adaInBoth
      assert.isTrue(Option.isSome(yield* members.remove(ada.id)))
      assert.isTrue(Option.isSome(yield* members.findAccount(ada.id)), "still a member elsewhere")
      assert.isTrue(Option.isNone(yield* members.findById(ada.id)))
      assert.isTrue(Option.isSome(yield* members.findByLogin("ada")))
      assert.isTrue(Option.isSome(yield* inOther(members.remove(ada.id))))
      assert.isTrue(Option.isNone(yield* members.findAccount(ada.id)))
      assert.isTrue(Option.isNone(yield* members.findByLogin("ada")), "the name is free again")
      yield* members.insert(memberRecord("ada", { id: MemberId.make("member-ada-2") }))
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("deleting an organisation's members keeps the accounts that belong elsewhere", () =>
    Effect.gen(function* () {
      const { ada, members } = yield* adaInBoth
      const bob = memberRecord("bob", { organizationId: other, roleId: roles.others })
      yield* inOther(members.insert(bob))
      yield* inOther(members.removeAll)
      assert.isTrue(Option.isNone(yield* members.findAccount(bob.id)), "bob belonged there only")
      assert.isTrue(Option.isSome(yield* members.findAccount(ada.id)))
      assertEquals(valueOf(yield* members.findById(ada.id)), viewOf(ada))
      assert.deepStrictEqual(
        (yield* members.membershipsOf(ada.id)).map((membership) => membership.organizationId),
        ["default"]
      )
    }).pipe(Effect.provide(withRoles(stores())))
  )
})
