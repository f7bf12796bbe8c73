import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { idGeneratorLayer } from "../../adapters/crypto/index.ts"
import {
  AuditEntry,
  AuditEntryId,
  AuditLog,
  CurrentOrganization,
  defaultOrganizationId,
  insertOrganization,
  MemberStore,
  Organization,
  OrganizationId,
  OrganizationStore,
  PermissionId,
  RolePermissionStore,
  RoleStore,
  SubscriptionStore,
  setUpOrganizations,
  UnknownRole
} from "../../core/index.ts"
import {
  at,
  memberRecord,
  newRole,
  roles,
  subscriptionOf,
  valueOf,
  viewOf,
  withRoles
} from "../support/contract.ts"
import { storeKinds } from "../support/stores.ts"

const other = OrganizationId.make("org-other")
const inOther = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.provideService(effect, CurrentOrganization, other)

describe.each(storeKinds)("organisations on %s", (_, stores) => {
  it.effect("the default organisation exists from the start, found by id and by slug", () =>
    Effect.gen(function* () {
      const organizations = yield* OrganizationStore
      const byId = valueOf(yield* organizations.findById(defaultOrganizationId))
      assert.strictEqual(byId.slug, "default")
      assert.deepStrictEqual(valueOf(yield* organizations.findByRef("default")), byId)
      assert.isTrue(Option.isNone(yield* organizations.findByRef("nobody")))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("another organisation's member is not found, listed, counted, changed or removed", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const theirs = memberRecord("theirs", { organizationId: other, roleId: roles.others })
      yield* inOther(members.insert(theirs))
      assert.isTrue(Option.isNone(yield* members.findById(theirs.id)))
      assert.lengthOf(yield* members.page({}, 50), 0)
      assert.strictEqual(yield* members.countActive, 0)
      assert.isTrue(
        Option.isNone(yield* members.update(theirs.id, theirs.roleId, { activestatus: false }, true))
      )
      assert.isTrue(Option.isNone(yield* members.setAccountStatus(theirs.id, false)))
      assert.isTrue(Option.isNone(yield* members.setPassword(theirs.id, "$scrypt$other")))
      assert.isTrue(Option.isNone(yield* members.remove(theirs.id)))
      // Untouched, in its own organisation.
      assert.deepStrictEqual(valueOf(yield* inOther(members.findById(theirs.id))), viewOf(theirs))
      assert.strictEqual(yield* inOther(members.countActive), 1)
      // Accounts are the deployment's: a login finds its account whatever the organisation.
      assert.strictEqual(valueOf(yield* members.findByLogin("theirs")).id, theirs.id)
      assert.deepStrictEqual(
        (yield* members.membershipsOf(theirs.id)).map((membership) => membership.organizationId),
        [other]
      )
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("role keys are unique within an organisation; another's roles are out of reach", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const theirs = yield* inOther(roles.insert(newRole("admin", at(1))))
      const ours = yield* roles.insert(newRole("admin", at(2)))
      assert.notStrictEqual(ours.id, theirs.id)
      assert.isTrue(Option.isNone(yield* roles.findById(theirs.id)))
      assert.deepStrictEqual(
        (yield* roles.page(undefined, 50)).map((role) => role.id),
        [ours.id]
      )
      assert.isTrue(Option.isNone(yield* roles.update(theirs.id, { name: "Taken over" })))
      const refused = yield* Effect.flip(
        (yield* MemberStore).insert(memberRecord("ada", { roleId: theirs.id }))
      )
      assert.instanceOf(refused, UnknownRole, "nobody is written into their role")
      assert.isTrue(Option.isNone(yield* roles.remove(theirs.id)))
      assert.strictEqual(valueOf(yield* inOther(roles.findById(theirs.id))).name, theirs.name)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("another organisation's permission record is not found, changed or counted", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const details = yield* RolePermissionStore
      const theirRole = yield* inOther(roles.insert(newRole("admin", at(1))))
      const theirs = valueOf(yield* inOther(details.grant(theirRole.id, PermissionId.make(1), at(2))))
      assert.isTrue(Option.isNone(yield* details.findById(theirs.id)))
      assert.isTrue(Option.isNone(yield* details.findByRole(theirRole.id)))
      assert.isTrue(Option.isNone(yield* details.grant(theirRole.id, PermissionId.make(2), at(3))))
      assert.isTrue(Option.isNone(yield* details.revoke(theirs, PermissionId.make(1), at(3))))
      assert.lengthOf(yield* details.rolesHolding([PermissionId.make(1)]), 0)
      yield* details.removeOfRole(theirRole.id)
      assert.deepStrictEqual(valueOf(yield* inOther(details.findById(theirs.id))).permissionIds, [
        PermissionId.make(1)
      ])
      assert.deepStrictEqual(yield* inOther(details.rolesHolding([PermissionId.make(1)])), [theirRole.id])
    }).pipe(Effect.provide(stores()))
  )

  it.effect("subscriptions are listed per organisation; the provider's references find them anywhere", () =>
    Effect.gen(function* () {
      const subscriptions = yield* SubscriptionStore
      const theirs = subscriptionOf("sub_theirs", 1, "active", {
        organizationId: other,
        providerSubscriptionId: "prov_theirs"
      })
      yield* inOther(subscriptions.insert(theirs))
      assert.isTrue(Option.isNone(yield* subscriptions.latest))
      assert.lengthOf(yield* subscriptions.listOpen, 0)
      const moved = subscriptionOf("sub_theirs", 1, "canceled", { organizationId: other, version: 2 })
      assert.isFalse(yield* subscriptions.replace(moved))
      assert.strictEqual(valueOf(yield* subscriptions.findById(theirs.id)).organizationId, other)
      assert.strictEqual(
        valueOf(yield* subscriptions.findByProviderSubscriptionId("prov_theirs")).id,
        theirs.id
      )
      assert.strictEqual(valueOf(yield* inOther(subscriptions.latest)).status, "active")
    }).pipe(Effect.provide(stores()))
  )

  it.effect("each organisation reads its own audit record", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const log = yield* AuditLog
      const theirs = memberRecord("theirs", { organizationId: other, roleId: roles.others })
      const entry = new AuditEntry({
        id: AuditEntryId.make("aud_theirs"),
        at: at(1),
        action: "member.added",
        actor: { kind: "master" },
        target: { type: "member", id: theirs.id },
        changes: {},
        organizationId: other
      })
      yield* inOther(members.insert(theirs, entry))
      assert.lengthOf(yield* log.page({}, 50), 0)
      assert.deepStrictEqual(
        (yield* inOther(log.page({}, 50))).map((listed) => listed.id),
        [entry.id]
      )
    }).pipe(Effect.provide(withRoles(stores())))
  )
})

describe.each(storeKinds)("deleting an organisation on %s", (_, stores) => {
  it.effect("a deletion a crash interrupted is finished at the next start; the audit record stays", () =>
    Effect.gen(function* () {
      const organizations = yield* OrganizationStore
      const acme = new Organization({ id: other, name: "Acme", slug: "acme", createdAt: at(0) })
      const { owner: role } = yield* insertOrganization(acme, { kind: "master" })
      yield* inOther(
        (yield* MemberStore).insert(memberRecord("wile", { organizationId: other, roleId: role.id }))
      )
      const entry = new AuditEntry({
        id: AuditEntryId.make("aud_deleted"),
        at: at(1),
        action: "organization.deleted",
        actor: { kind: "master" },
        target: { type: "organization", id: other },
        changes: {},
        organizationId: other
      })
      assert.isTrue(Option.isSome(yield* organizations.startDeleting(other, entry)))
      // The process stops here; the organisation is gone to every lookup already.
      assert.isTrue(Option.isNone(yield* organizations.findByRef("acme")))
      assert.deepStrictEqual(yield* organizations.beingDeleted, [other])
      yield* setUpOrganizations
      assert.deepStrictEqual(yield* organizations.beingDeleted, [])
      assert.lengthOf(yield* inOther((yield* MemberStore).page({}, 10)), 0)
      assert.lengthOf(yield* inOther((yield* RoleStore).page(undefined, 10)), 0)
      assert.isTrue(Option.isNone(yield* inOther((yield* RolePermissionStore).findByRole(role.id))))
      assert.isTrue(Option.isNone(yield* (yield* MemberStore).findByLogin("wile")))
      assert.deepStrictEqual(
        (yield* inOther((yield* AuditLog).page({}, 10))).map((listed) => listed.action),
        ["organization.deleted", "organization.created"]
      )
      assert.lengthOf(yield* organizations.page({}, 10), 1)
    }).pipe(Effect.provide([stores(), idGeneratorLayer]))
  )
})
