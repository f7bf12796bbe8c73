import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  getOrganization,
  NotFound,
  OrganizationStore,
  RoleId,
  UnknownRole,
  updateOrganization
} from "../../core/index.ts"
import { auditRecord } from "../support/audit.ts"
import { failureOf, master, provideRoster } from "../support/roster.ts"

describe("changing the organisation", () => {
  it.effect("records what changed only, and answers it as stored", () =>
    Effect.gen(function* () {
      const before = yield* getOrganization(master)
      const renamed = yield* updateOrganization(master, { name: "Renamed" })
      assert.strictEqual(renamed.name, "Renamed")
      assert.strictEqual((yield* getOrganization(master)).name, "Renamed")
      const [entry] = yield* auditRecord
      assert.strictEqual(entry?.action, "organization.updated")
      assert.deepStrictEqual(entry?.target, { type: "organization", id: before.id })
      assert.deepStrictEqual(entry?.changes, { name: [before.name, "Renamed"] })
    }).pipe(provideRoster())
  )

  it.effect("refuses a default role that does not exist, changing nothing", () =>
    Effect.gen(function* () {
      const refused = failureOf(
        yield* Effect.exit(updateOrganization(master, { defaultRoleId: RoleId.make(99) }))
      )
      assert.instanceOf(refused, UnknownRole)
      assert.strictEqual((refused as UnknownRole).roleId, 99)
      assert.lengthOf(yield* auditRecord, 0)
    }).pipe(provideRoster())
  )

  it.effect("is NotFound when the organisation went between its read and its write", () =>
    Effect.gen(function* () {
      const organizations = yield* OrganizationStore
      const current = yield* getOrganization(master)
      const gone = failureOf(
        yield* Effect.exit(
          updateOrganization(master, { name: "Late" }).pipe(
            Effect.provideService(OrganizationStore, {
              ...organizations,
              update: () => Effect.succeed(Option.none())
            })
          )
        )
      )
      assert.instanceOf(gone, NotFound)
      assert.deepStrictEqual([(gone as NotFound).entity, (gone as NotFound).id], ["organization", current.id])
    }).pipe(provideRoster())
  )
})
