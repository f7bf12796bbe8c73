import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  addMember,
  CurrentOrganization,
  createOrganization,
  DuplicateOrganizationSlug,
  MemberStore,
  type OrganizationId,
  OrganizationStore,
  RoleStore,
  setUpOrganizations
} from "../../core/index.ts"
import { master, memberInput, provideRoster, refusal, roleWith } from "../support/roster.ts"

describe("a deletion a crash interrupted", () => {
  it.effect("is finished at start: the organisation, its roles and members gone, the others kept", () =>
    Effect.gen(function* () {
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const inAcme = Effect.provideService(CurrentOrganization, acme.id)
      const staff = yield* inAcme(roleWith("staff", ["team.read"]))
      const ivy = yield* inAcme(addMember(master, memberInput("ivy", staff.id)))
      const kept = yield* addMember(master, memberInput("kim", (yield* roleWith("staff", [])).id))
      const organizations = yield* OrganizationStore
      // Marked, then stopped: nothing of it was deleted yet.
      yield* organizations.startDeleting(acme.id)
      assert.deepStrictEqual(yield* organizations.beingDeleted, [acme.id])
      yield* setUpOrganizations
      assert.deepStrictEqual(yield* organizations.beingDeleted, [])
      assert.isTrue(Option.isNone(yield* inAcme((yield* MemberStore).findById(ivy.id))))
      assert.isTrue(Option.isNone(yield* inAcme((yield* RoleStore).findById(staff.id))))
      assert.isTrue(
        Option.isSome(yield* (yield* MemberStore).findById(kept.id)),
        "the default one's member stays"
      )
    }).pipe(provideRoster())
  )
})

describe("an organisation whose slug was taken while it was made", () => {
  it.effect("is not made, and the Owner role made for it is taken back", () =>
    Effect.gen(function* () {
      let made: OrganizationId | undefined
      const refused = yield* refusal(
        createOrganization(master, { name: "Acme", slug: "acme" }).pipe(
          Effect.updateService(OrganizationStore, (store) => ({
            ...store,
            insert: (organization) => {
              made = organization.id
              return Effect.fail(new DuplicateOrganizationSlug({ slug: organization.slug }))
            }
          }))
        )
      )
      assert.deepStrictEqual(
        { ...(refused as object) },
        { ...new DuplicateOrganizationSlug({ slug: "acme" }) }
      )
      const roles = yield* (yield* RoleStore)
        .page(undefined, 10)
        .pipe(
          Effect.provideService(CurrentOrganization, made ?? assert.fail("an organisation was being made"))
        )
      assert.deepStrictEqual(roles, [])
    }).pipe(provideRoster())
  )
})
