import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import {
  addMember,
  authenticate,
  CurrentOrganization,
  createApiKey,
  createOrganization,
  createScimToken,
  declarePermission,
  everyPermission,
  grantPermission,
  isRosterPermission,
  listPermissions,
  NotFound,
  namespaceOf,
  PermissionId,
  PermissionInUse,
  ProductPermissionKey,
  ProductPermissionStore,
  permissionIdOf,
  resolvePermission,
  retirePermission,
  syncPermissions,
  UnknownPermission
} from "../../core/index.ts"
import {
  actorWith,
  logInAs,
  master,
  memberInput,
  provideRoster,
  refusal,
  roleWith
} from "../support/roster.ts"

const accepted = (key: string) => Option.isSome(Schema.decodeUnknownOption(ProductPermissionKey)(key))
const memberOnly = Effect.map(actorWith("bob", ["team.read"]), ({ principal }) => principal)
const stateOf = (key: string) =>
  Effect.map(
    ProductPermissionStore.use((store) => store.findByKey(key)),
    Option.map((record) => record.state)
  )

describe("a product permission's key", () => {
  it("is 3–100 of [a-z0-9_.:-], starting with a letter, holding a . or a :", () => {
    for (const key of ["projects.delete", "invoices:read", "a.b", "x_1-2.y", `p.${"q".repeat(98)}`])
      assert.isTrue(accepted(key), key)
    for (const key of [
      "ab",
      "projects",
      "Projects.delete",
      "1projects.x",
      "_a.b",
      "a b.c",
      `p.${"q".repeat(99)}`
    ])
      assert.isFalse(accepted(key), key)
  })

  it("is in none of Roster's namespaces, its first segment compared whole", () => {
    for (const key of ["team.custom", "organization:x", "billing.extra", "admin.x", "audit:y", "roster.z"])
      assert.throws(
        () => Schema.decodeUnknownSync(ProductPermissionKey)(key),
        "Expected a key outside Roster's own namespaces (team, organization, billing, admin, audit, roster)"
      )
    for (const key of ["teams.x", "teamx:y", "audits.read", "projects.team", "a.roster"])
      assert.isTrue(accepted(key), key)
    assert.strictEqual(namespaceOf("billing:refunds.read"), "billing")
    assert.strictEqual(namespaceOf("projects.delete:all"), "projects")
  })
})

describe("declaring product permissions", () => {
  it.effect("allocates ids from 1000 in order, one per key, the description changed in place", () =>
    Effect.gen(function* () {
      const first = yield* declarePermission(master, "projects.delete", "Delete projects")
      const second = yield* declarePermission(master, "invoices:read", "")
      assert.deepStrictEqual([first.id, second.id], [1000, 1001])
      assert.strictEqual(first.kind, "product")
      const again = yield* declarePermission(master, "projects.delete", "Remove projects")
      assert.strictEqual(again.id, 1000)
      assert.strictEqual(again.description, "Remove projects")
      const catalog = yield* listPermissions(master)
      assert.deepStrictEqual(
        catalog
          .filter((permission) => permission.kind === "product")
          .map(({ id, key, description }) => ({ id, key, description })),
        [
          { id: 1000, key: "projects.delete", description: "Remove projects" },
          { id: 1001, key: "invoices:read", description: "" }
        ]
      )
      assert.deepStrictEqual(
        catalog.filter((permission) => permission.kind === "roster").map(({ key }) => key),
        catalog.slice(0, catalog.length - 2).map(({ key }) => key),
        "Roster's own come first"
      )
    }).pipe(provideRoster())
  )

  it.effect("is the operator's alone: a member holding every permission is refused", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", [
        "team.read",
        "team.permissions.write",
        "organization.write"
      ])
      const refused = yield* refusal(declarePermission(principal, "projects.delete", ""))
      assert.deepStrictEqual(
        { tag: refused?._tag, reason: (refused as { reason?: string }).reason },
        { tag: "Forbidden", reason: "operator_only" }
      )
      assert.isTrue(Option.isNone(yield* stateOf("projects.delete")), "nothing was declared")
    }).pipe(provideRoster())
  )

  it.effect("from a file's list: in order, idempotently, a missing description empty, absent keys kept", () =>
    Effect.gen(function* () {
      yield* declarePermission(master, "reports.export", "Export reports")
      const synced = yield* syncPermissions(master, [
        { key: "projects.delete", description: "Delete projects" },
        { key: "invoices:read" }
      ])
      assert.deepStrictEqual(
        synced.map(({ id, key, description }) => ({ id, key, description })),
        [
          { id: 1001, key: "projects.delete", description: "Delete projects" },
          { id: 1002, key: "invoices:read", description: "" }
        ]
      )
      const resynced = yield* syncPermissions(master, [
        { key: "invoices:read", description: "Read invoices" }
      ])
      assert.deepStrictEqual(
        resynced.map(({ id, description }) => ({ id, description })),
        [{ id: 1002, description: "Read invoices" }]
      )
      assert.deepStrictEqual(Option.getOrUndefined(yield* stateOf("reports.export")), "declared")
      const refused = yield* refusal(syncPermissions(yield* memberOnly, [{ key: "x.y" }]))
      assert.strictEqual(refused?._tag, "Forbidden")
    }).pipe(provideRoster())
  )
})

describe("resolving a permission", () => {
  it.effect("by the product's id or key while declared; ids below 1000 or unsafe are never read", () =>
    Effect.gen(function* () {
      const declared = yield* declarePermission(master, "projects.delete", "")
      const byId = yield* resolvePermission(PermissionId.make(1000))
      const byKey = yield* resolvePermission("projects.delete")
      assert.deepStrictEqual(
        Option.map(byId, ({ key, kind }) => ({ key, kind })),
        Option.some({ key: "projects.delete", kind: "product" as const })
      )
      assert.deepStrictEqual(
        Option.map(byKey, ({ id }) => id),
        Option.some(declared.id)
      )
      assert.deepStrictEqual(
        Option.map(yield* resolvePermission(PermissionId.make(1)), ({ key }) => key),
        Option.some("team.read")
      )
      let reads = 0
      const counting = Effect.updateService(ProductPermissionStore, (store) => ({
        ...store,
        findById: (id) =>
          Effect.suspend(() => {
            reads++
            return store.findById(id)
          })
      }))
      for (const id of [999, 500, 2 ** 53, 1000.5, 1001])
        assert.isTrue(Option.isNone(yield* resolvePermission(id as PermissionId).pipe(counting)), String(id))
      assert.strictEqual(reads, 1, "only 1001 was looked up")
      assert.isTrue(Option.isNone(yield* resolvePermission("projects.create")))
    }).pipe(provideRoster())
  )

  it("tells Roster's own ids and the marker from the product's", () => {
    assert.isTrue(isRosterPermission(permissionIdOf("team.read")))
    assert.isTrue(isRosterPermission(permissionIdOf("organization.write")))
    assert.isTrue(isRosterPermission(everyPermission))
    assert.isFalse(isRosterPermission(PermissionId.make(1000)))
    assert.isFalse(isRosterPermission(PermissionId.make(999)))
  })
})

describe("retiring a product permission", () => {
  it.effect("retires one nobody holds: no longer listed, granted or asked about; its id never reused", () =>
    Effect.gen(function* () {
      yield* declarePermission(master, "projects.delete", "Delete projects")
      yield* declarePermission(master, "invoices:read", "")
      const retired = yield* retirePermission(master, "projects.delete")
      assert.deepStrictEqual(
        { id: retired.id, key: retired.key, kind: retired.kind },
        { id: 1000, key: "projects.delete", kind: "product" }
      )
      assert.deepStrictEqual(Option.getOrUndefined(yield* stateOf("projects.delete")), "retired")
      assert.isTrue(Option.isNone(yield* resolvePermission("projects.delete")))
      assert.isTrue(Option.isNone(yield* resolvePermission(PermissionId.make(1000))))
      assert.notInclude(
        (yield* listPermissions(master)).map(({ key }) => key),
        "projects.delete"
      )
      const role = yield* roleWith("devs", [])
      const refused = yield* refusal(
        grantPermission(master, { roleId: role.id, permissionId: "projects.delete" })
      )
      assert.deepStrictEqual(refused, new UnknownPermission({ permission: "projects.delete" }))
      assert.strictEqual(
        (yield* declarePermission(master, "reports.export", "")).id,
        1002,
        "1000 is not reused"
      )
      const back = yield* declarePermission(master, "projects.delete", "Back again")
      assert.strictEqual(back.id, 1000, "a key declared again keeps its id")
      assert.deepStrictEqual(Option.getOrUndefined(yield* stateOf("projects.delete")), "declared")
    }).pipe(provideRoster())
  )

  it.effect("refuses an unknown key, one retired already, and anyone but the operator", () =>
    Effect.gen(function* () {
      const unknown = yield* refusal(retirePermission(master, "projects.delete"))
      assert.deepStrictEqual(unknown, new NotFound({ entity: "permission", id: "projects.delete" }))
      yield* declarePermission(master, "projects.delete", "")
      const member = yield* refusal(retirePermission(yield* memberOnly, "projects.delete"))
      assert.strictEqual((member as { reason?: string }).reason, "operator_only")
      assert.deepStrictEqual(Option.getOrUndefined(yield* stateOf("projects.delete")), "declared")
      yield* retirePermission(master, "projects.delete")
      assert.strictEqual((yield* refusal(retirePermission(master, "projects.delete")))?._tag, "NotFound")
    }).pipe(provideRoster())
  )

  it.effect("grants nothing while it is being retired", () =>
    Effect.gen(function* () {
      yield* declarePermission(master, "projects.delete", "")
      yield* ProductPermissionStore.use((store) => store.move("projects.delete", "declared", "retiring"))
      const role = yield* roleWith("devs", [])
      const refused = yield* refusal(
        grantPermission(master, { roleId: role.id, permissionId: PermissionId.make(1000) })
      )
      assert.strictEqual(refused?._tag, "UnknownPermission")
      assert.strictEqual((yield* refusal(retirePermission(master, "projects.delete")))?._tag, "NotFound")
    }).pipe(provideRoster())
  )
})

describe("a product permission in use", () => {
  it.effect("is kept, with every organisation's roles, API keys and SCIM tokens holding it counted", () =>
    Effect.gen(function* () {
      yield* declarePermission(master, "projects.delete", "")
      yield* declarePermission(master, "invoices:read", "")
      const devs = yield* roleWith("devs", [])
      yield* grantPermission(master, { roleId: devs.id, permissionId: "projects.delete" })
      yield* createApiKey(master, { name: "deploys", permissions: ["projects.delete", "team.read"] })
      yield* createApiKey(master, { name: "reads", permissions: ["invoices:read"] })
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      yield* Effect.gen(function* () {
        const leads = yield* roleWith("leads", ["organization.write"])
        yield* grantPermission(master, { roleId: leads.id, permissionId: "projects.delete" })
        yield* addMember(master, memberInput("ada", leads.id))
        const ada = yield* authenticate(Option.some((yield* logInAs("ada")).token))
        yield* createScimToken(ada, { name: "idp" })
        const { principal: bob } = yield* actorWith("bob", ["organization.write"])
        yield* createScimToken(bob, { name: "without it" })
      }).pipe(Effect.provideService(CurrentOrganization, acme.id))
      const refused = yield* refusal(retirePermission(master, "projects.delete"))
      assert.deepStrictEqual(
        refused,
        new PermissionInUse({ key: "projects.delete", holders: { roles: 2, apiKeys: 1, scimTokens: 1 } })
      )
      assert.deepStrictEqual(
        Option.getOrUndefined(yield* stateOf("projects.delete")),
        "declared",
        "declared again"
      )
      assert.isTrue(Option.isSome(yield* resolvePermission("projects.delete")), "and grantable")
    }).pipe(provideRoster())
  )

  it.effect("counts an API key on any page of the organisation's keys", () =>
    Effect.gen(function* () {
      yield* declarePermission(master, "projects.delete", "")
      for (let index = 0; index < 200; index++)
        yield* createApiKey(master, { name: `key ${index}`, permissions: ["team.read"] })
      yield* createApiKey(master, { name: "the last", permissions: ["projects.delete"] })
      const refused = yield* refusal(retirePermission(master, "projects.delete"))
      assert.deepStrictEqual(
        refused,
        new PermissionInUse({ key: "projects.delete", holders: { roles: 0, apiKeys: 1, scimTokens: 0 } })
      )
    }).pipe(provideRoster())
  )
})
