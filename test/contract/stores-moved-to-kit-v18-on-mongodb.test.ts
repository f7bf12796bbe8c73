// Documents the hand-written stores that SQLite's version 18 moved wrote on MongoDB, read through
// the declared resources: each old store's write copied here as the raw document it inserted,
// under the indexes it made.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
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
import { scratch, storesOn, withClient } from "../support/mongo-scratch.ts"

type Stored = { _id: string } & Record<string, unknown>

const date = (second: number) => new Date(second * 1000)

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

/** What the hand-written organisation store inserted: `acme`, and one whose deletion started. */
const writtenByHand = (database: string) =>
  withClient(async (client) => {
    const organizations = client.db(database).collection<Stored>("organizations")
    await organizations.createIndex({ slug: 1 }, { name: "slug_unique", unique: true })
    await organizations.insertMany([
      {
        _id: "org-acme",
        name: "Acme Corp",
        slug: "acme",
        defaultRoleId: 3,
        ownerRoleId: 2,
        requireMfa: true,
        ssoRequired: true,
        createdAt: date(30),
        outbox: []
      },
      { _id: "org-gone", name: "Gone", slug: "gone", createdAt: date(40), deleting: true, outbox: [] }
    ])
  })

const ada = new UserProfile({
  memberId: MemberId.make("m-ada"),
  userName: "Ada@Example.com",
  externalId: "ext-ada",
  lastModified: at(50)
})
const admins = new GroupProfile({ roleId: RoleId.make(2), lastModified: at(51) })

/** What the hand-written provisioning store wrote: `ada` and `admins`, each its profile whole as JSON. */
const profilesWrittenByHand = (database: string) =>
  withClient(async (client) => {
    const db = client.db(database)
    const users = db.collection<Stored>("user_profiles")
    await users.createIndex(
      { organizationId: 1, userNameKey: 1 },
      { name: "user_name_unique_in_organization", unique: true }
    )
    await users.replaceOne(
      { _id: "default/m-ada" },
      {
        organizationId: "default",
        userNameKey: "ada@example.com",
        profile: {
          memberId: "m-ada",
          userName: "Ada@Example.com",
          externalId: "ext-ada",
          lastModified: "1970-01-01T00:00:50.000Z"
        }
      },
      { upsert: true }
    )
    const groups = db.collection<Stored>("group_profiles")
    await groups.createIndex({ organizationId: 1 }, { name: "by_organization" })
    await groups.replaceOne(
      { _id: "default/2" },
      { organizationId: "default", profile: { roleId: 2, lastModified: "1970-01-01T00:00:51.000Z" } },
      { upsert: true }
    )
  })

const indexesOf = (database: string, collection: string) =>
  withClient((client) => client.db(database).collection(collection).listIndexes().toArray()).pipe(
    Effect.map((indexes) => indexes.map((index) => String(index.name)))
  )

/** The organisation's fields, whatever class holds them. */
const fieldsOf = (organization: Organization) => ({ ...organization })

describe("the organisations' and provisioning profiles' documents written by hand, on MongoDB", () => {
  it.effect(
    "are found, listed, changed and kept unique through their declaration, under the kit's indexes",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const database = yield* scratch
          yield* writtenByHand(database)
          yield* Effect.gen(function* () {
            const store = yield* OrganizationStore
            assert.deepStrictEqual(fieldsOf(valueOf(yield* store.findByRef("acme"))), fieldsOf(acme))
            assert.isTrue(Option.isNone(yield* store.findById(OrganizationId.make("org-gone"))))
            assert.deepStrictEqual(yield* store.beingDeleted, [OrganizationId.make("org-gone")])
            assert.deepStrictEqual(
              (yield* store.page({ q: "Ac" }, 10)).map((organization) => organization.id),
              [acme.id]
            )
            const refused = yield* Effect.flip(
              store.insert(new Organization({ ...acme, id: OrganizationId.make("org-again") }))
            )
            assert.strictEqual(refused._tag, "DuplicateOrganizationSlug")
            assert.strictEqual(valueOf(yield* store.update(acme.id, { requireMfa: false })).requireMfa, false)
            assert.strictEqual(valueOf(yield* store.findById(acme.id)).requireMfa, false)
          }).pipe(Effect.provide(storesOn(database)))

          const indexes = yield* withClient((client) =>
            client.db(database).collection("organizations").listIndexes().toArray()
          )
          assert.sameMembers(
            indexes.map((index) => String(index.name)),
            ["_id_", "unique_slug", "by_createdAt"]
          )
        })
      )
  )

  it.effect(
    "provisioning profiles are found, kept unique by user name, and removed, under the kit's indexes",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const database = yield* scratch
          yield* profilesWrittenByHand(database)
          yield* Effect.gen(function* () {
            const store = yield* ProvisioningStore
            assertEquals(valueOf(yield* store.findUser(ada.memberId)), ada)
            assertEquals(valueOf(yield* store.findUserByUserName("ada@EXAMPLE.com")), ada)
            assertEquals(valueOf(yield* store.findGroup(admins.roleId)), admins)
            const taken = yield* Effect.flip(
              store.putUser(new UserProfile({ ...ada, memberId: MemberId.make("m-other") }))
            )
            assert.strictEqual(taken._tag, "DuplicateUsername")
            yield* store.removeGroup(admins.roleId)
            assert.lengthOf(yield* store.groups, 0)
            assert.lengthOf(yield* store.users, 1)
          }).pipe(Effect.provide(storesOn(database)))
          assert.sameMembers(yield* indexesOf(database, "user_profiles"), [
            "_id_",
            "unique_organizationId_userNameKey"
          ])
          assert.sameMembers(yield* indexesOf(database, "group_profiles"), ["_id_", "by_organizationId"])
        })
      )
  )
})
