import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import {
  CurrentOrganization,
  inEveryOrganization,
  Organization,
  OrganizationId,
  OrganizationStore
} from "../../core/index.ts"
import { provideRoster } from "../support/roster.ts"

const organizationNumbered = (n: number) =>
  new Organization({
    id: OrganizationId.make(`org-${String(n).padStart(4, "0")}`),
    name: `Organisation ${n}`,
    slug: `organisation-${n}`,
    createdAt: DateTime.makeUnsafe(1_000 + Math.floor(n / 3))
  })

const visited = Effect.gen(function* () {
  const seen: Array<string> = []
  yield* inEveryOrganization((organization) =>
    CurrentOrganization.useSync((acting) => {
      assert.strictEqual(acting, organization.id, "the work acts in the organisation it is given")
      seen.push(organization.id)
    })
  )
  return seen
})

describe("in every organisation", () => {
  it.effect("visits each once, oldest first, page after page, whether the last page is full or not", () =>
    Effect.gen(function* () {
      const store = yield* OrganizationStore
      const before = yield* visited
      assert.deepStrictEqual(before, ["default"])
      // With the default one: two full pages exactly, then one more organisation.
      for (let n = 1; n <= 399; n++) yield* store.insert(organizationNumbered(n))
      const full = yield* visited
      assert.strictEqual(full.length, 400)
      assert.strictEqual(new Set(full).size, 400)
      yield* store.insert(organizationNumbered(400))
      const all = yield* visited
      assert.deepStrictEqual(
        all.slice(1),
        [...Array(400).keys()].map((i) => organizationNumbered(i + 1).id)
      )
    }).pipe(provideRoster())
  )
})
