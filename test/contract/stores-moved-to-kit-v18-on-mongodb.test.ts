// Documents the hand-written stores that SQLite's version 18 moved wrote on MongoDB, read through
// the declared resources: each old store's write copied here as the raw document it inserted,
// under the indexes it made.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Organization, OrganizationId, OrganizationStore, RoleId } from "../../core/index.ts"
import { at, valueOf } from "../support/contract.ts"
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

/** The organisation's fields, whatever class holds them. */
const fieldsOf = (organization: Organization) => ({ ...organization })

describe("the organisations' documents written by hand, on MongoDB", () => {
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
})
