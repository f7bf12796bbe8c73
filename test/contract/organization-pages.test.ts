import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Organization, OrganizationId, OrganizationStore } from "../../core/index.ts"
import { at, valueOf } from "../support/contract.ts"
import { storeKinds } from "../support/stores.ts"

const organization = (slug: string, name: string, second: number) =>
  new Organization({ id: OrganizationId.make(`org-${slug}`), name, slug, createdAt: at(second) })

const acme = organization("acme", "Acme Corp", 10)
const beta = organization("beta", "Ácme Beta", 20)
const under = organization("a-b-c", "A_B 100%", 30)
const gone = organization("acme-old", "Acme Old", 40)

const slugsOf = (found: ReadonlyArray<Organization>) => found.map((each) => each.slug)

describe.each(storeKinds)("organisation lookups and pages on %s", (_, stores) => {
  it.effect(
    "are found by id or slug, listed oldest first by a prefix of slug or name, whatever its case",
    () =>
      Effect.gen(function* () {
        const store = yield* OrganizationStore
        for (const each of [under, beta, acme, gone]) yield* store.insert(each)
        yield* store.startDeleting(gone.id)

        assert.strictEqual(valueOf(yield* store.findByRef("beta")).id, beta.id, "by slug")
        assert.strictEqual(valueOf(yield* store.findByRef("org-beta")).slug, "beta", "by id")
        assert.isTrue(Option.isNone(yield* store.findByRef("acme-old")), "being deleted: found by no lookup")
        assert.isTrue(Option.isNone(yield* store.findById(gone.id)))

        const all = yield* store.page({}, 10)
        // The default organisation was made at the store's start, at the test clock's zero: the oldest.
        assert.deepStrictEqual(slugsOf(all), ["default", "acme", "beta", "a-b-c"], "oldest first")
        assert.deepStrictEqual(
          slugsOf(yield* store.page({ q: "AC" }, 10)),
          ["acme"],
          "slug or name, any case"
        )
        assert.deepStrictEqual(slugsOf(yield* store.page({ q: "a_" }, 10)), ["a-b-c"], "'_' is no wildcard")
        assert.deepStrictEqual(slugsOf(yield* store.page({ q: "%" }, 10)), [], "nor '%'")
        assert.deepStrictEqual(slugsOf(yield* store.page({ q: "a_b 100%" }, 10)), ["a-b-c"])
        assert.deepStrictEqual(slugsOf(yield* store.page({ q: "corp" }, 10)), [], "a prefix, not a substring")
        assert.deepStrictEqual(slugsOf(yield* store.page({ q: "a" }, 1)), ["acme"], "at most the limit")
        assert.deepStrictEqual(
          slugsOf(yield* store.page({ q: "a", after: { createdAt: acme.createdAt, id: acme.id } }, 10)),
          ["a-b-c"],
          "after a place"
        )
        assert.deepStrictEqual(yield* store.beingDeleted, [gone.id])
      }).pipe(Effect.provide(stores()))
  )
})
