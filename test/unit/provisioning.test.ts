import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  addRole,
  CurrentOrganization,
  createOrganization,
  Forbidden,
  getProvisionedUser,
  grantPermission,
  listProvisionedUsers,
  NoDefaultRole,
  PermissionId,
  type Principal,
  provisionUser,
  roleKeyFrom,
  ScimTokenId,
  scimTokenPermissions,
  usernameFrom,
  withSuffix
} from "../../core/index.ts"
import { failureOf, master, provideRoster } from "../support/roster.ts"

describe("names made for identity providers", () => {
  it("a username from a userName that is none: '@' a dot, the rest a dash, at least 3 and at most 64", () => {
    assert.strictEqual(usernameFrom("ada@example.com"), "ada.example.com")
    assert.strictEqual(usernameFrom("Zoë Ångström@corp"), "Zoe-Angstrom.corp")
    assert.strictEqual(usernameFrom("@@"), "user-")
    assert.strictEqual(usernameFrom("é"), "user-e")
    assert.strictEqual(usernameFrom(`${"x".repeat(80)}@example.com`).length, 64)
    assert.strictEqual(withSuffix("x".repeat(64), "2"), `${"x".repeat(62)}-2`)
  })

  it("a role key from a display name: a lower-case slug, 'group' when nothing is left of it", () => {
    assert.strictEqual(roleKeyFrom("Sales (EMEA)"), "sales-emea")
    assert.strictEqual(roleKeyFrom("  Équipe  Été "), "equipe-ete")
    assert.strictEqual(roleKeyFrom("!!!"), "group")
    assert.match(roleKeyFrom(`${"a-".repeat(40)}b`), /^[a-z0-9]+(?:-[a-z0-9]+)*$/)
  })
})

describe("provisioning through the core", () => {
  it.effect("a SCIM principal provisions in its own organisation only, into the default role", () =>
    Effect.gen(function* () {
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const scim: Principal = {
        _tag: "Scim",
        tokenId: ScimTokenId.make("scim-1"),
        organizationId: acme.id,
        permissionIds: scimTokenPermissions(master)
      }
      const inAcme = Effect.provideService(CurrentOrganization, acme.id)
      const refused = failureOf(
        yield* Effect.exit(provisionUser(scim, { userName: "ada@example.com" }, Option.none()))
      )
      assert.instanceOf(refused, Forbidden)
      assert.instanceOf(
        failureOf(
          yield* Effect.exit(inAcme(provisionUser(scim, { userName: "ada@example.com" }, Option.none())))
        ),
        NoDefaultRole
      )
      const reader = yield* inAcme(addRole(master, { name: "Reader", roleKey: "reader" }))
      yield* inAcme(grantPermission(master, { roleId: reader.id, permissionId: PermissionId.make(1) }))
      const member = yield* inAcme(
        provisionUser(scim, { userName: "ada@example.com", displayName: "Ada" }, Option.none())
      )
      assert.strictEqual(member.roleId, reader.id)
      assert.strictEqual(member.username, "ada.example.com")
      const seen = yield* inAcme(getProvisionedUser(scim, member.id))
      assert.strictEqual(seen.profile?.displayName, "Ada")
      assert.deepStrictEqual(
        (yield* inAcme(listProvisionedUsers(scim))).map((user) => user.member.id),
        [member.id]
      )
    }).pipe(provideRoster())
  )
})
