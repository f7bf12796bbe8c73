import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { type AuditEntry, AuditLog } from "../../core/index.ts"

/** The whole audit record, newest first. */
export const auditRecord = Effect.flatMap(AuditLog, (log) => log.page({}, 1000))

/** Runs `self` and answers its result and the entries it added to the record, oldest first. */
export const audited = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const before = new Set((yield* auditRecord).map((entry) => entry.id))
    const result = yield* self
    const added = (yield* auditRecord).filter((entry) => !before.has(entry.id)).reverse()
    return { result, added }
  })

/** The one entry `self` added; fails the test if there is not exactly one. */
export const theEntryOf = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.map(audited(self), ({ result, added }) => {
    assert.lengthOf(added, 1, "one entry")
    return { result, entry: added[0] as AuditEntry }
  })

/** Asserts that `self` recorded nothing. */
export const assertUnrecorded = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.map(audited(self), ({ result, added }) => {
    assert.lengthOf(added, 0, "no entry")
    return result
  })
