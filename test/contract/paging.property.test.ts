import { describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import fc from "fast-check"
import { expect } from "vitest"
import { byCreation, listMembers, MemberId, type MemberPosition, MemberStore } from "../../core/index.ts"
import { at, corePortsOn, memberRecord, withRoles } from "../support/contract.ts"
import { master } from "../support/roster.ts"
import { storeKinds } from "../support/stores.ts"

/** What happens between two page reads: a member added (at some creation time) or one removed. */
const change = fc.oneof(
  fc.record({ kind: fc.constant("add" as const), second: fc.integer({ min: 0, max: 12 }) }),
  fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() })
)

const scenario = fc.record({
  initial: fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 25 }),
  limit: fc.integer({ min: 1, max: 6 }),
  changes: fc.array(fc.array(change, { maxLength: 3 }), { maxLength: 12 })
})

type Scenario = typeof scenario extends fc.Arbitrary<infer Generated> ? Generated : never

/**
 * Reads every page while members are added and removed between the reads, and checks that each
 * member present throughout was seen exactly once, nobody twice, in list order.
 */
const traverse = ({ initial, limit, changes }: Scenario) =>
  Effect.gen(function* () {
    const members = yield* MemberStore
    let created = 0
    const add = (second: number) =>
      members.insert(memberRecord(`user${created++}`, { createdAt: at(second) }))
    for (const second of initial) yield* add(second)
    const present = new Set((yield* members.page({}, 1000)).map((member) => member.id as string))
    const throughout = new Set(present)
    const seen: Array<{ id: string; createdAt: MemberPosition["createdAt"] }> = []
    let after: MemberPosition | undefined
    for (let step = 0; ; step++) {
      const page = yield* listMembers(master, after === undefined ? { limit } : { limit, after })
      seen.push(...page.items)
      if (Option.isNone(page.next)) break
      after = page.next.value
      for (const next of changes[step % Math.max(1, changes.length)] ?? []) {
        if (next.kind === "add") {
          yield* add(next.second)
          present.add(`member-user${created - 1}`)
        } else if (present.size > 0) {
          const victim = [...present][next.pick % present.size] as string
          yield* members.remove(MemberId.make(victim))
          present.delete(victim)
          throughout.delete(victim)
        }
      }
    }
    const seenIds = seen.map((member) => member.id)
    expect(new Set(seenIds).size, "nobody is seen twice").toBe(seenIds.length)
    for (const id of throughout) expect(seenIds, `${id} was there throughout`).toContain(id)
    expect([...seen].sort(byCreation)).toEqual(seen)
  })

describe.each(storeKinds)("paging members on %s", (kind, stores) => {
  it("visits each member present throughout exactly once while others come and go", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, (generated) =>
        Effect.runPromise(traverse(generated).pipe(Effect.provide(corePortsOn(withRoles(stores())))))
      ),
      { numRuns: kind === "memory" ? 100 : 12 }
    )
  })
})
