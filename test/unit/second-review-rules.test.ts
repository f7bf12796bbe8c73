// The rules a second outside review asked for, proven on the core with the in-memory adapters.
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Option, Redacted } from "effect"
import {
  addRole,
  authenticate,
  CurrentOrganization,
  createOrganization,
  createScimToken,
  DuplicateEmail,
  deleteOrganization,
  everyPermission,
  Forbidden,
  inviteMember,
  listRoles,
  Organization,
  OrganizationId,
  OrganizationStore,
  PermissionCatalog,
  type Principal,
  permissionIdOf,
  permissionsOfRole,
  provisionUser,
  type RoleId,
  ScimTokenStore,
  scimTokenPermissions,
  setUpOrganizations,
  Unauthenticated,
  updateRole
} from "../../core/index.ts"
import { actorWith, failureOf, master, provideRoster, roleWith, signedInMember } from "../support/roster.ts"

const ids = (...keys: Parameters<typeof permissionIdOf>[0][]) => keys.map(permissionIdOf)

describe("a SCIM token's permissions", () => {
  it.effect("are its creator's of when it was made, less organization.write", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(
        scimTokenPermissions(master),
        // The marker first: a token of the master key holds the product's permissions declared later too.
        [everyPermission, ...PermissionCatalog.map((permission) => permission.id)].filter(
          (id) => id !== permissionIdOf("organization.write")
        )
      )
      const lead = yield* actorWith("lead", ["organization.write", "team.members.write", "team.read"])
      assert.deepStrictEqual(scimTokenPermissions(lead.principal), ids("team.read", "team.members.write"))
      const made = yield* createScimToken(lead.principal, { name: "IdP" })
      assert.deepStrictEqual(made.scimToken.permissionIds, ids("team.read", "team.members.write"))
      const stored = yield* (yield* ScimTokenStore).list
      assert.deepStrictEqual(
        stored.map((token) => token.permissionIds),
        [ids("team.read", "team.members.write")]
      )
    }).pipe(provideRoster())
  )

  it.effect("bound a SCIM principal: what its token was not given is refused", () =>
    Effect.gen(function* () {
      yield* roleWith("reader", ["team.read"])
      const scim = (permissionIds: ReadonlyArray<number>): Principal => ({
        _tag: "Scim",
        tokenId: "scim-1" as never,
        organizationId: "default" as never,
        permissionIds: permissionIds as never
      })
      const refused = failureOf(
        yield* Effect.exit(
          provisionUser(scim(ids("team.read")), { userName: "ada@example.com" }, Option.none())
        )
      )
      assert.instanceOf(refused, Forbidden)
      const withWrite = scim(ids("team.read", "team.members.write", "organization.write"))
      const made = yield* provisionUser(withWrite, { userName: "ada@example.com" }, Option.none())
      assert.strictEqual(made.email, "ada@example.com")
    }).pipe(provideRoster())
  )
})

describe("SCIM provisioning", () => {
  it.effect("refuses a person an account names by e-mail or username, in any organisation", () =>
    Effect.gen(function* () {
      yield* roleWith("reader", ["team.read"])
      yield* signedInMember("hire", ["team.read"])
      for (const [userName, email] of [
        ["hire@example.com", undefined],
        ["hire", "other@example.com"],
        ["new.person@example.com", "HIRE@example.com"]
      ] as const) {
        const input = email === undefined ? { userName } : { userName, email }
        const refused = failureOf(yield* Effect.exit(provisionUser(master, input, Option.none())))
        assert.instanceOf(refused, DuplicateEmail, userName)
      }
    }).pipe(provideRoster())
  )
})

describe("deleting an organisation", () => {
  it.effect("takes every permission of the catalog; organization.write alone is owner_only", () =>
    Effect.gen(function* () {
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const inAcme = Effect.provideService(CurrentOrganization, acme.id)
      const settings = yield* inAcme(actorWith("settings", ["organization.write"]))
      const refused = failureOf(yield* Effect.exit(inAcme(deleteOrganization(settings.principal))))
      assert.instanceOf(refused, Forbidden)
      assert.strictEqual((refused as Forbidden).reason, "owner_only")
      assert.isTrue(Option.isSome(yield* (yield* OrganizationStore).findById(acme.id)))
      const deleted = yield* inAcme(deleteOrganization(master))
      assert.strictEqual(deleted.id, acme.id)
    }).pipe(provideRoster())
  )
})

describe("deactivating a role", () => {
  it.effect("ends the sessions begun before, also once the role is active again", () =>
    Effect.gen(function* () {
      const ada = yield* signedInMember("ada", ["team.read"])
      const deactivated = yield* updateRole(master, ada.role.id, { activeStatus: false })
      assert.isDefined(deactivated.deactivatedAt)
      yield* updateRole(master, ada.role.id, { activeStatus: true })
      const refused = failureOf(yield* Effect.exit(authenticate(Option.some(ada.token))))
      assert.instanceOf(refused, Unauthenticated)
      const renamed = yield* updateRole(master, ada.role.id, { name: "Readers" })
      assert.deepStrictEqual(renamed.deactivatedAt, deactivated.deactivatedAt)
    }).pipe(provideRoster())
  )
})

describe("re-inviting", () => {
  it.effect("needs the ceiling over the pending invitation it replaces", () =>
    Effect.gen(function* () {
      const admins = yield* roleWith("admins", ["team.read", "team.members.write", "team.roles.write"])
      const staff = yield* roleWith("staff", ["team.read"])
      const lead = yield* actorWith("lead", ["team.read", "team.members.write"])
      yield* inviteMember(master, { email: "boss@example.com", roleId: admins.id })
      const refused = failureOf(
        yield* Effect.exit(inviteMember(lead.principal, { email: "Boss@Example.com", roleId: staff.id }))
      )
      assert.instanceOf(refused, Forbidden)
      const other = yield* inviteMember(lead.principal, { email: "new@example.com", roleId: staff.id })
      assert.isTrue(Option.isSome(other.token))
      assert.strictEqual(Redacted.value(Option.getOrThrow(other.token)).length > 0, true)
    }).pipe(provideRoster())
  )
})

describe("the Owner role at start", () => {
  const inAcme = Effect.provideService(CurrentOrganization, OrganizationId.make("org-acme"))
  const legacyAcme = new Organization({
    id: OrganizationId.make("org-acme"),
    name: "Acme",
    slug: "acme",
    createdAt: DateTime.makeUnsafe(0)
  })
  const permissionsOf = (roleId: RoleId) => inAcme(permissionsOfRole(roleId))

  it.effect("is the one recorded by id: a role keyed owner is granted nothing", () =>
    Effect.gen(function* () {
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const ownerRoleId = acme.ownerRoleId ?? assert.fail("the organisation records its Owner role")
      const inIt = Effect.provideService(CurrentOrganization, acme.id)
      yield* inIt(updateRole(master, ownerRoleId, { roleKey: "founders" }))
      const impostor = yield* inIt(addRole(master, { name: "Owner", roleKey: "owner" }))
      yield* setUpOrganizations
      assert.deepStrictEqual(yield* inIt(permissionsOfRole(impostor.id)), [])
      assert.lengthOf(yield* inIt(permissionsOfRole(ownerRoleId)), PermissionCatalog.length + 1) // and the marker of every permission
    }).pipe(provideRoster())
  )

  it.effect(
    "of an organisation stored before: its oldest role when it held the catalog of then, else none",
    () =>
      Effect.gen(function* () {
        yield* (yield* OrganizationStore).insert(legacyAcme)
        const oldest = yield* inAcme(roleWith("staff", ["team.read"]))
        yield* setUpOrganizations
        assert.isUndefined(
          Option.getOrThrow(yield* (yield* OrganizationStore).findById(legacyAcme.id)).ownerRoleId
        )
        assert.deepStrictEqual(yield* permissionsOf(oldest.id), [permissionIdOf("team.read")])
      }).pipe(provideRoster())
  )

  it.effect("of an organisation stored before whose oldest role held it all: recorded and completed", () =>
    Effect.gen(function* () {
      yield* (yield* OrganizationStore).insert(legacyAcme)
      const catalogOfThen = PermissionCatalog.filter((permission) => permission.id <= 9).map((p) => p.key)
      const founders = yield* inAcme(roleWith("founders", catalogOfThen))
      yield* setUpOrganizations
      const found = Option.getOrThrow(yield* (yield* OrganizationStore).findById(legacyAcme.id))
      assert.strictEqual(found.ownerRoleId, founders.id)
      assert.lengthOf(yield* permissionsOf(founders.id), PermissionCatalog.length + 1) // and the marker of every permission
    }).pipe(provideRoster())
  )

  it.effect("of an organisation with no role at all: made, recorded, and not made twice", () =>
    Effect.gen(function* () {
      yield* (yield* OrganizationStore).insert(legacyAcme)
      yield* setUpOrganizations
      yield* setUpOrganizations
      const found = Option.getOrThrow(yield* (yield* OrganizationStore).findById(legacyAcme.id))
      const owner = found.ownerRoleId ?? assert.fail("an Owner role is recorded")
      assert.lengthOf(yield* permissionsOf(owner), PermissionCatalog.length + 1) // and the marker of every permission
      assert.lengthOf((yield* inAcme(listRoles(master, {}))).items, 1)
    }).pipe(provideRoster())
  )
})
