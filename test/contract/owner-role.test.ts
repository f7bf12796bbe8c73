import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { idGeneratorLayer } from "../../adapters/crypto/index.ts"
import {
  CurrentOrganization,
  everyPermission as everyPermissionMarker,
  insertOrganization,
  Organization,
  OrganizationId,
  OrganizationStore,
  PermissionCatalog,
  PermissionId,
  type RoleId,
  RoleLookup,
  RolePermissionStore,
  RoleStore,
  setUpOrganizations
} from "../../core/index.ts"
import { at, newRole, valueOf } from "../support/contract.ts"
import { storeKinds } from "../support/stores.ts"

const acmeId = OrganizationId.make("org-acme")
const inAcme = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.provideService(effect, CurrentOrganization, acmeId)
const acme = (ownerRoleId?: RoleId) =>
  new Organization({
    id: acmeId,
    name: "Acme",
    slug: "acme",
    ...(ownerRoleId === undefined ? {} : { ownerRoleId }),
    createdAt: at(0)
  })

const everyPermission = PermissionCatalog.map((permission) => permission.id)
/** What an Owner role's record holds: Roster's catalog and the marker of every permission (the product's too). */
const ownersRecord = [...everyPermission, everyPermissionMarker]

const heldBy = (roleId: RoleId) =>
  inAcme(
    Effect.map(
      RoleLookup.use((roles) => roles.find(roleId)),
      (found) => valueOf(found).permissionIds
    )
  )

const roleHolding = (roleKey: string, permissionIds: ReadonlyArray<number>, second = 1) =>
  inAcme(
    Effect.gen(function* () {
      const role = yield* (yield* RoleStore).insert(newRole(roleKey, at(second)))
      for (const id of permissionIds)
        yield* (yield* RolePermissionStore).grant(role.id, PermissionId.make(id), at(second))
      return role
    })
  )

const recordedOwner = Effect.map(
  OrganizationStore.use((organizations) => organizations.findById(acmeId)),
  (found) => valueOf(found).ownerRoleId
)

describe.each(storeKinds)("the Owner role on %s", (_, stores) => {
  it.effect("is recorded by id: a start grants nothing to another role keyed owner", () =>
    Effect.gen(function* () {
      const { owner } = yield* insertOrganization(acme(), { kind: "master" })
      assert.strictEqual(yield* recordedOwner, owner.id)
      assert.sameMembers([...(yield* heldBy(owner.id))], ownersRecord)
      yield* inAcme((yield* RoleStore).update(owner.id, { roleKey: "founders", name: "Founders" }))
      const impostor = yield* roleHolding("owner", [1])
      yield* setUpOrganizations
      assert.deepStrictEqual(yield* heldBy(impostor.id), [PermissionId.make(1)])
      assert.sameMembers([...(yield* heldBy(owner.id))], ownersRecord)
    }).pipe(Effect.provide([stores(), idGeneratorLayer]))
  )

  it.effect("of an organisation stored before: its oldest role, if it held that whole catalog", () =>
    Effect.gen(function* () {
      yield* (yield* OrganizationStore).insert(acme())
      const founders = yield* roleHolding("founders", everyPermission)
      yield* roleHolding("owner", [1], 2)
      yield* setUpOrganizations
      assert.strictEqual(yield* recordedOwner, founders.id)
      assert.sameMembers([...(yield* heldBy(founders.id))], ownersRecord)
    }).pipe(Effect.provide([stores(), idGeneratorLayer]))
  )

  it.effect(
    "of an organisation stored before whose oldest role did not hold it all: none, nothing granted",
    () =>
      Effect.gen(function* () {
        yield* (yield* OrganizationStore).insert(acme())
        const oldest = yield* roleHolding("staff", [1, 2])
        const keyed = yield* roleHolding("owner", [1], 2)
        yield* setUpOrganizations
        assert.isUndefined(yield* recordedOwner)
        assert.deepStrictEqual([...(yield* heldBy(oldest.id))].sort(), [1, 2])
        assert.deepStrictEqual(yield* heldBy(keyed.id), [PermissionId.make(1)])
      }).pipe(Effect.provide([stores(), idGeneratorLayer]))
  )

  it.effect("of an organisation whose creation stopped before any role: made, recorded and granted", () =>
    Effect.gen(function* () {
      yield* (yield* OrganizationStore).insert(acme())
      yield* setUpOrganizations
      const owner = (yield* recordedOwner) ?? assert.fail("an Owner role is recorded")
      assert.sameMembers([...(yield* heldBy(owner))], ownersRecord)
      const second = yield* recordedOwner
      yield* setUpOrganizations
      assert.strictEqual(yield* recordedOwner, second)
      assert.lengthOf(yield* inAcme((yield* RoleStore).page(undefined, 10)), 1)
    }).pipe(Effect.provide([stores(), idGeneratorLayer]))
  )

  it.effect("a recorded Owner role that was deleted is not made again, nor its record", () =>
    Effect.gen(function* () {
      const gone = yield* roleHolding("gone", [])
      yield* inAcme((yield* RoleStore).remove(gone.id))
      yield* (yield* OrganizationStore).insert(acme(gone.id))
      yield* setUpOrganizations
      assert.isTrue(Option.isNone(yield* inAcme((yield* RolePermissionStore).findByRole(gone.id))))
      assert.lengthOf(yield* inAcme((yield* RoleStore).page(undefined, 10)), 0)
    }).pipe(Effect.provide([stores(), idGeneratorLayer]))
  )
})
