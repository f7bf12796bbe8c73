import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import {
  AuditLog,
  CurrentOrganization,
  DuplicateRoleKey,
  MemberId,
  MemberStore,
  OrganizationId,
  OrganizationStore,
  RoleId,
  RolePermissionDetailId,
  RolePermissionStore,
  RoleStore,
  SubscriptionStore
} from "../../core/index.ts"
import { newRole, valueOf } from "../support/contract.ts"
import { scratch, storesOn, withClient } from "../support/mongo-scratch.ts"

type Stored<Id> = { _id: Id } & Record<string, unknown>

const at = new Date(Date.UTC(2026, 0, 1))

/** What a deployment stored before organisations existed: no document names one. */
const writeOldShape = (database: string) =>
  withClient(async (client) => {
    const db = client.db(database)
    await db.collection("roles").createIndex({ roleKey: 1 }, { name: "role_key_unique", unique: true })
    await db.collection("members").createIndex({ createdAt: 1, _id: 1 }, { name: "creation_order" })
    await db
      .collection<Stored<number>>("roles")
      .insertOne({ _id: 1, name: "Admin", roleKey: "admin", activeStatus: true, createdAt: at, holders: 1 })
    await db.collection<Stored<number>>("role_permissions").insertOne({
      _id: 1,
      roleId: 1,
      permissionIds: [1, 2],
      updatedAt: at
    })
    await db.collection<Stored<string>>("members").insertOne({
      _id: "m-ada",
      username: "ada",
      usernameKey: "ada",
      email: "ada@example.com",
      passwordHash: "$scrypt$ln=10,r=8,p=1$c2FsdA$aGFzaA",
      activestatus: true,
      accountActiveStatus: true,
      sessionEpoch: 0,
      roleId: 1,
      createdAt: at
    })
    await db.collection<Stored<string>>("subscriptions").insertOne({
      _id: "sub_old",
      planId: "team",
      planName: "Team",
      price: { amountMinor: 1999, currency: "EUR" },
      status: "active",
      history: [{ status: "active", at }],
      recentEventIds: [],
      version: 1,
      createdAt: at,
      updatedAt: at
    })
    await db.collection<Stored<string>>("audit_events").insertOne({
      _id: "aud_old",
      at,
      action: "member.added",
      actor: { kind: "master" },
      target: { type: "member", id: "m-ada" },
      changes: []
    })
  })

describe("data stored before organisations, on MongoDB", () => {
  it.effect("moves into the default organisation at start, once, with two instances starting together", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const database = yield* scratch
        yield* writeOldShape(database)
        const [first] = yield* Effect.all(
          [Layer.build(storesOn(database)), Layer.build(storesOn(database))],
          {
            concurrency: 2
          }
        )
        yield* Effect.gen(function* () {
          const organizations = yield* OrganizationStore
          assert.strictEqual(valueOf(yield* organizations.findByRef("default")).id, "default")
          const ada = valueOf(yield* (yield* MemberStore).findById(MemberId.make("m-ada")))
          assert.strictEqual(ada.organizationId, "default")
          // The one document that was both is now an account and its membership.
          const account = valueOf(yield* (yield* MemberStore).findByLogin("ADA@example.com"))
          assert.strictEqual(account.id, "m-ada")
          assert.strictEqual(account.passwordHash, "$scrypt$ln=10,r=8,p=1$c2FsdA$aGFzaA")
          assert.deepStrictEqual(
            (yield* (yield* MemberStore).membershipsOf(account.id)).map((m) => m.organizationId),
            ["default"]
          )
          assert.deepStrictEqual(
            (yield* (yield* RoleStore).page(undefined, 10)).map((role) => role.roleKey),
            ["admin"]
          )
          const detail = valueOf(yield* (yield* RolePermissionStore).findById(RolePermissionDetailId.make(1)))
          assert.deepStrictEqual([...detail.permissionIds], [1, 2])
          assert.strictEqual(valueOf(yield* (yield* SubscriptionStore).latest).id, "sub_old")
          assert.deepStrictEqual(
            (yield* (yield* AuditLog).page({}, 10)).map((entry) => entry.id),
            ["aud_old"]
          )
          // The role key is unique within an organisation now, no longer in the deployment.
          const roles = yield* RoleStore
          const error = yield* Effect.flip(roles.insert(newRole("admin")))
          assert.instanceOf(error, DuplicateRoleKey)
          const elsewhere = yield* roles
            .insert(newRole("admin"))
            .pipe(Effect.provideService(CurrentOrganization, OrganizationId.make("org-b")))
          assert.isTrue(Option.isNone(yield* roles.findById(RoleId.make(elsewhere.id))))
        }).pipe(Effect.provide(first))
        const state = yield* withClient(async (client) => {
          const db = client.db(database)
          const unmoved = await Promise.all(
            ["members", "roles", "role_permissions", "subscriptions", "audit_events"].map((name) =>
              db.collection(name).countDocuments({ organizationId: { $exists: false } })
            )
          )
          const roleIndexes = (await db.collection("roles").indexes()).map((index) => index.name)
          const organizations = await db.collection("organizations").countDocuments({})
          const accounts = await db.collection<Stored<string>>("accounts").find().toArray()
          const member = await db.collection("members").findOne({ accountId: "m-ada" })
          return { unmoved, roleIndexes, organizations, accounts, member }
        })
        assert.deepStrictEqual(state.unmoved, [0, 0, 0, 0, 0])
        assert.notInclude(state.roleIndexes, "role_key_unique")
        assert.include(state.roleIndexes, "role_key_unique_in_organization")
        assert.strictEqual(state.organizations, 1, "one default organisation, however many instances started")
        assert.deepStrictEqual(
          state.accounts.map((account) => account._id),
          ["m-ada"],
          "one account, however many instances started"
        )
        assert.notProperty(state.member, "passwordHash", "the credential lives with the account only")
      })
    )
  )
})
