// A file the hand-written stores of version 17 wrote, read through the declared resources of
// version 18: each old store's write copied here as the raw SQL it ran.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import type { SqliteConnection } from "../../adapters/sqlite/connection.ts"
import { openBunSqlite, sqliteStores } from "../../adapters/sqlite/index.ts"
import { latestSchemaVersion } from "../../adapters/sqlite/migrations.ts"
import {
  CurrentOrganization,
  GroupProfile,
  MemberId,
  Organization,
  OrganizationId,
  OrganizationStore,
  ProvisioningStore,
  RoleId,
  UserProfile
} from "../../core/index.ts"
import { assertEquals, at, valueOf } from "../support/contract.ts"
import { fileAtVersion, tablesOf } from "../support/sqlite-versions.ts"
import { scratchFile } from "../support/stores.ts"

const acme = new Organization({
  id: OrganizationId.make("org-acme"),
  name: "Acme Corp",
  slug: "acme",
  defaultRoleId: RoleId.make(3),
  ownerRoleId: RoleId.make(2),
  requireMfa: true,
  ssoRequired: true,
  createdAt: at(30)
})
const plain = new Organization({
  id: OrganizationId.make("org-plain"),
  name: "Plain",
  slug: "plain",
  createdAt: at(35)
})

/** What version 17's organisation store ran: the default one at start, `acme`, `plain`, one being deleted. */
const writtenByVersion17 = (db: SqliteConnection) => {
  db.run(
    "INSERT OR IGNORE INTO organizations (id, name, slug, created_at) VALUES (?, 'Default', ?, ?)",
    "default",
    "default",
    1_000
  )
  const inserted =
    "INSERT INTO organizations (id, name, slug, default_role_id, owner_role_id, created_at) VALUES (?, ?, ?, ?, ?, ?)"
  db.run(inserted, "org-acme", "Acme Corp", "acme", null, null, 30_000)
  db.run(
    "UPDATE organizations SET name = ?, default_role_id = ?, require_mfa = ?, sso_required = ? WHERE id = ?",
    "Acme Corp",
    3,
    1,
    1,
    "org-acme"
  )
  db.run("UPDATE organizations SET owner_role_id = ? WHERE id = ? AND owner_role_id IS NULL", 2, "org-acme")
  db.run(inserted, "org-plain", "Plain", "plain", null, null, 35_000)
  db.run(inserted, "org-gone", "Gone", "gone", null, null, 40_000)
  db.run("UPDATE organizations SET deleting = 1 WHERE id = ?", "org-gone")
}

const ada = new UserProfile({
  memberId: MemberId.make("m-ada"),
  userName: "Ada@Example.com",
  externalId: "ext-ada",
  name: { givenName: "Ada", familyName: "Lovelace" },
  lastModified: at(50)
})
const admins = new GroupProfile({ roleId: RoleId.make(2), externalId: "ext-admins", lastModified: at(51) })
const other = OrganizationId.make("org-acme")

/** What version 17's provisioning store ran: `ada` and `admins` in the default organisation, `ada` again in another. */
const profilesWrittenByVersion17 = (db: SqliteConnection) => {
  const user = `INSERT INTO user_profiles (organization_id, member_id, user_name_key, profile) VALUES (?, ?, ?, ?)
     ON CONFLICT (organization_id, member_id)
     DO UPDATE SET user_name_key = excluded.user_name_key, profile = excluded.profile`
  const adaJson =
    '{"memberId":"m-ada","userName":"Ada@Example.com","externalId":"ext-ada",' +
    '"name":{"givenName":"Ada","familyName":"Lovelace"},"lastModified":"1970-01-01T00:00:50.000Z"}'
  db.run(user, "default", "m-ada", "ada@example.com", adaJson)
  db.run(user, "org-acme", "m-ada", "ada@example.com", adaJson)
  db.run(
    `INSERT INTO group_profiles (organization_id, role_id, profile) VALUES (?, ?, ?)
             ON CONFLICT (organization_id, role_id) DO UPDATE SET profile = excluded.profile`,
    "default",
    2,
    '{"roleId":2,"externalId":"ext-admins","lastModified":"1970-01-01T00:00:51.000Z"}'
  )
}

/** The organisation's fields, whatever class holds them. */
const fieldsOf = (organization: Organization) => ({ ...organization })

describe("the organisations and provisioning profiles of version 17, on SQLite", () => {
  it.effect("are found, listed, changed and kept unique through their declaration's table", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const path = yield* scratchFile
        const old = yield* fileAtVersion(path, 17)
        writtenByVersion17(old)
        old.close()
        yield* Effect.gen(function* () {
          const store = yield* OrganizationStore
          assert.deepStrictEqual(fieldsOf(valueOf(yield* store.findById(acme.id))), fieldsOf(acme))
          assert.deepStrictEqual(fieldsOf(valueOf(yield* store.findByRef("plain"))), fieldsOf(plain))
          assert.strictEqual(valueOf(yield* store.findByRef("default")).createdAt.epochMilliseconds, 1_000)
          assert.isTrue(Option.isNone(yield* store.findByRef("gone")), "being deleted: found by no lookup")
          assert.deepStrictEqual(yield* store.beingDeleted, [OrganizationId.make("org-gone")])
          assert.deepStrictEqual(
            (yield* store.page({}, 10)).map((organization) => organization.slug),
            ["default", "acme", "plain"]
          )
          assert.deepStrictEqual(
            (yield* store.page({ q: "ACME" }, 10)).map((organization) => organization.id),
            [acme.id]
          )
          const refused = yield* Effect.flip(
            store.insert(new Organization({ ...plain, id: OrganizationId.make("org-again") }))
          )
          assert.strictEqual(refused._tag, "DuplicateOrganizationSlug")
          const renamed = valueOf(yield* store.update(plain.id, { name: "Plainer" }))
          assert.strictEqual(valueOf(yield* store.findById(plain.id)).name, renamed.name)
          yield* store.remove(OrganizationId.make("org-gone"))
          assert.deepStrictEqual(yield* store.beingDeleted, [])
        }).pipe(Effect.provide(Layer.orDie(sqliteStores({ path, open: openBunSqlite }))))

        const after = yield* Effect.promise(() => openBunSqlite(path))
        assert.strictEqual(Number(after.get("PRAGMA user_version")?.user_version), latestSchemaVersion)
        assert.notInclude(tablesOf(after), "organizations_before_kit")
        assert.strictEqual(after.get("SELECT count(*) AS n FROM organizations")?.n, 3)
        after.close()
      })
    )
  )

  it.effect(
    "profiles are found by member, role and user name, unique per organisation, removed by organisation",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const path = yield* scratchFile
          const old = yield* fileAtVersion(path, 17)
          profilesWrittenByVersion17(old)
          old.close()
          yield* Effect.gen(function* () {
            const store = yield* ProvisioningStore
            assertEquals(valueOf(yield* store.findUser(ada.memberId)), ada)
            assertEquals(valueOf(yield* store.findUserByUserName("ADA@example.com")), ada)
            assertEquals(valueOf(yield* store.findGroup(admins.roleId)), admins)
            assert.lengthOf(yield* store.users, 1)
            const taken = yield* Effect.flip(
              store.putUser(new UserProfile({ ...ada, memberId: MemberId.make("m-other") }))
            )
            assert.strictEqual(taken._tag, "DuplicateUsername")
            yield* store.putUser(new UserProfile({ ...ada, userName: "ada.l@example.com" }))
            assert.isTrue(Option.isSome(yield* store.findUserByUserName("ada.l@example.com")))
            yield* store.removeAll
            assert.lengthOf(yield* store.users, 0)
            assert.lengthOf(yield* store.groups, 0)
            const theirs = yield* Effect.provideService(
              store.findUserByUserName("ada@example.com"),
              CurrentOrganization,
              other
            )
            assertEquals(valueOf(theirs, "another organisation's profile, left"), ada)
          }).pipe(Effect.provide(Layer.orDie(sqliteStores({ path, open: openBunSqlite }))))

          const after = yield* Effect.promise(() => openBunSqlite(path))
          assert.notIncludeMembers(tablesOf(after), ["user_profiles_before_kit", "group_profiles_before_kit"])
          assert.strictEqual(after.get("SELECT count(*) AS n FROM user_profiles")?.n, 1)
          after.close()
        })
      )
  )
})
