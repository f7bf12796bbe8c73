import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import {
  isSubsetOf,
  PermissionId,
  type PermissionSet,
  sortedPermissions,
  withoutPermission,
  withPermission
} from "../../core/index.ts"

/** A small id range so that generated sets overlap often. */
const permissionId = fc.integer({ min: 1, max: 24 }).map((n) => PermissionId.make(n))
const idList = fc.array(permissionId, { maxLength: 30 })
const permissionSet = idList.map((ids): PermissionSet => new Set(ids))

const sameElements = (a: Iterable<PermissionId>, b: Iterable<PermissionId>) =>
  assert.deepStrictEqual(sortedPermissions(a), sortedPermissions(b))

/** The property, over random sets and ids, that `operation` leaves the set it was given as it was. */
const leavesItsInputUnchanged =
  (operation: (set: PermissionSet, id: PermissionId) => PermissionSet) => () => {
    fc.assert(
      fc.property(permissionSet, permissionId, (set, id) => {
        const before = sortedPermissions(set)
        operation(set, id)
        assert.deepStrictEqual(sortedPermissions(set), before)
      })
    )
  }

describe("isSubsetOf", () => {
  it("is reflexive", () => {
    fc.assert(fc.property(permissionSet, (set) => isSubsetOf(set, set)))
  })

  it("holds for the empty set against anything", () => {
    fc.assert(fc.property(permissionSet, (set) => isSubsetOf([], set)))
  })

  it("agrees with the definition: every element of the subset is in the superset", () => {
    fc.assert(
      fc.property(idList, permissionSet, (subset, superset) => {
        assert.strictEqual(
          isSubsetOf(subset, superset),
          subset.every((id) => superset.has(id))
        )
      })
    )
  })

  it("fails as soon as one element is missing from the superset", () => {
    fc.assert(
      fc.property(permissionSet, permissionSet, permissionId, (subset, superset, extra) => {
        const lacking = withoutPermission(superset, extra)
        assert.isFalse(isSubsetOf(withPermission(subset, extra), lacking))
      })
    )
  })

  it("is transitive", () => {
    fc.assert(
      fc.property(permissionSet, permissionSet, permissionSet, (a, b, c) => {
        // Build a ⊆ a∪b ⊆ a∪b∪c.
        const ab = new Set([...a, ...b])
        const abc = new Set([...ab, ...c])
        assert.isTrue(isSubsetOf(a, ab))
        assert.isTrue(isSubsetOf(ab, abc))
        assert.isTrue(isSubsetOf(a, abc))
      })
    )
  })

  it("is antisymmetric: mutual subsets have the same elements", () => {
    fc.assert(
      fc.property(permissionSet, permissionSet, (a, b) => {
        if (isSubsetOf(a, b) && isSubsetOf(b, a)) sameElements(a, b)
      })
    )
  })

  it("accepts iterables with repeated elements", () => {
    fc.assert(
      fc.property(permissionSet, (set) => {
        const doubled = [...set, ...set]
        assert.isTrue(isSubsetOf(doubled, set))
      })
    )
  })
})

describe("withPermission", () => {
  it("adds exactly the one id and keeps everything else", () => {
    fc.assert(
      fc.property(permissionSet, permissionId, (set, id) => {
        const next = withPermission(set, id)
        assert.isTrue(next.has(id))
        assert.strictEqual(next.size, set.size + (set.has(id) ? 0 : 1))
        assert.isTrue(isSubsetOf(set, next))
        assert.isTrue(isSubsetOf([id], next))
        for (const other of next) if (other !== id) assert.isTrue(set.has(other))
      })
    )
  })

  it("is idempotent", () => {
    fc.assert(
      fc.property(permissionSet, permissionId, (set, id) => {
        sameElements(withPermission(withPermission(set, id), id), withPermission(set, id))
      })
    )
  })

  it("does not change its input", leavesItsInputUnchanged(withPermission))

  it("keeps the subset relation: a ⊆ b implies a + id ⊆ b + id", () => {
    fc.assert(
      fc.property(permissionSet, permissionSet, permissionId, (a, extra, id) => {
        const b = new Set([...a, ...extra])
        assert.isTrue(isSubsetOf(withPermission(a, id), withPermission(b, id)))
      })
    )
  })
})

describe("withoutPermission", () => {
  it("removes exactly the one id and keeps everything else", () => {
    fc.assert(
      fc.property(permissionSet, permissionId, (set, id) => {
        const next = withoutPermission(set, id)
        assert.isFalse(next.has(id))
        assert.strictEqual(next.size, set.size - (set.has(id) ? 1 : 0))
        for (const other of set) if (other !== id) assert.isTrue(next.has(other))
        assert.isTrue(isSubsetOf(next, set))
      })
    )
  })

  it("is a no-op when the id is absent (idempotent removal)", () => {
    fc.assert(
      fc.property(permissionSet, permissionId, (set, id) => {
        const once = withoutPermission(set, id)
        sameElements(withoutPermission(once, id), once)
        if (!set.has(id)) sameElements(once, set)
      })
    )
  })

  it("does not change its input", leavesItsInputUnchanged(withoutPermission))

  it("undoes withPermission for an id not already held", () => {
    fc.assert(
      fc.property(permissionSet, permissionId, (set, id) => {
        const without = withoutPermission(set, id)
        sameElements(withoutPermission(withPermission(without, id), id), without)
        sameElements(withPermission(withoutPermission(set, id), id), withPermission(set, id))
      })
    )
  })

  it("removals of different ids commute", () => {
    fc.assert(
      fc.property(permissionSet, permissionId, permissionId, (set, a, b) => {
        sameElements(
          withoutPermission(withoutPermission(set, a), b),
          withoutPermission(withoutPermission(set, b), a)
        )
      })
    )
  })
})

describe("sortedPermissions", () => {
  it("is strictly ascending (sorted and without duplicates)", () => {
    fc.assert(
      fc.property(idList, (ids) => {
        const sorted = sortedPermissions(ids)
        for (let i = 1; i < sorted.length; i++) {
          assert.isBelow(sorted[i - 1] as number, sorted[i] as number)
        }
      })
    )
  })

  it("keeps exactly the distinct input elements", () => {
    fc.assert(
      fc.property(idList, (ids) => {
        const sorted = sortedPermissions(ids)
        assert.strictEqual(sorted.length, new Set(ids).size)
        assert.sameMembers(sorted, [...new Set(ids)])
      })
    )
  })

  it("sorts numerically, not lexicographically", () => {
    assert.deepStrictEqual(sortedPermissions([10, 9, 2, 1].map((n) => PermissionId.make(n))), [1, 2, 9, 10])
  })

  it("is idempotent and independent of input order", () => {
    fc.assert(
      fc.property(idList, (ids) => {
        const sorted = sortedPermissions(ids)
        assert.deepStrictEqual(sortedPermissions(sorted), sorted)
        assert.deepStrictEqual(sortedPermissions([...ids].reverse()), sorted)
        assert.deepStrictEqual(sortedPermissions(new Set(ids)), sorted)
      })
    )
  })

  it("does not change its input", () => {
    fc.assert(
      fc.property(idList, (ids) => {
        const copy = [...ids]
        sortedPermissions(ids)
        assert.deepStrictEqual(ids, copy)
      })
    )
  })
})
