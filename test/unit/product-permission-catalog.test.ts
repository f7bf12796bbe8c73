import { assert, describe, it } from "@effect/vitest"
import { Effect, Logger, Option, References } from "effect"
import {
  AuditLog,
  declarePermission,
  listPermissions,
  ProductPermissionStore,
  retirePermission,
  syncPermissions
} from "../../core/index.ts"
import { actorWith, master, provideRoster, refusal } from "../support/roster.ts"

const memberOnly = Effect.map(actorWith("bob", ["team.read"]), ({ principal }) => principal)
const stateOf = (key: string) =>
  Effect.map(
    ProductPermissionStore.use((store) => store.findByKey(key)),
    Option.map((record) => record.state)
  )

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

describe("the catalog's changes", () => {
  it.effect(
    "are logged with the permission's key (and its id when declared), belonging to no organisation",
    () =>
      Effect.gen(function* () {
        const logged: Array<{ readonly msg: unknown; readonly fields: Record<string, unknown> }> = []
        const capture = Logger.layer([
          Logger.make(({ message, fiber }) => {
            const fields = fiber.getRef(References.CurrentLogAnnotations)
            logged.push({ msg: Array.isArray(message) ? message[0] : message, fields })
          })
        ])
        yield* declarePermission(master, "projects.delete", "").pipe(Effect.provide(capture))
        yield* retirePermission(master, "projects.delete").pipe(Effect.provide(capture))
        assert.deepStrictEqual(logged, [
          { msg: "product permission declared", fields: { permission: "projects.delete", id: 1000 } },
          { msg: "product permission retired", fields: { permission: "projects.delete" } }
        ])
        assert.lengthOf(yield* AuditLog.use((log) => log.page({}, 10)), 0, "nothing audited")
      }).pipe(provideRoster())
  )

  it.effect("a retirement another instance overtook answers the permission as it retired it", () =>
    Effect.gen(function* () {
      yield* declarePermission(master, "projects.delete", "Delete projects")
      const answered = yield* retirePermission(master, "projects.delete").pipe(
        Effect.updateService(ProductPermissionStore, (store) => ({
          ...store,
          move: (key, from, to) => (to === "retired" ? Effect.succeedNone : store.move(key, from, to))
        }))
      )
      assert.deepStrictEqual(
        { id: answered.id, key: answered.key, description: answered.description },
        { id: 1000, key: "projects.delete", description: "Delete projects" }
      )
    }).pipe(provideRoster())
  )
})
