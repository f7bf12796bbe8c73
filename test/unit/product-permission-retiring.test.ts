import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  addMember,
  authenticate,
  CurrentOrganization,
  createApiKey,
  createOrganization,
  createScimToken,
  declarePermission,
  grantPermission,
  listPermissions,
  NotFound,
  PermissionId,
  PermissionInUse,
  ProductPermissionStore,
  resolvePermission,
  retirePermission,
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

const memberOnly = Effect.map(actorWith("bob", ["team.read"]), ({ principal }) => principal)
const stateOf = (key: string) =>
  Effect.map(
    ProductPermissionStore.use((store) => store.findByKey(key)),
    Option.map((record) => record.state)
  )

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
      assert.deepStrictEqual(
        { ...(refused as object) },
        { ...new UnknownPermission({ permission: "projects.delete" }) }
      )
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
      assert.deepStrictEqual(
        { ...(unknown as object) },
        { ...new NotFound({ entity: "permission", id: "projects.delete" }) }
      )
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
        { ...(refused as object) },
        {
          ...new PermissionInUse({ key: "projects.delete", holders: { roles: 2, apiKeys: 1, scimTokens: 1 } })
        }
      )
      assert.deepStrictEqual(
        Option.getOrUndefined(yield* stateOf("projects.delete")),
        "declared",
        "declared again"
      )
      assert.isTrue(Option.isSome(yield* resolvePermission("projects.delete")), "and grantable")
    }).pipe(provideRoster())
  )
})
