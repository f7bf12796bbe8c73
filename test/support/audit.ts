import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { type AuditEntry, AuditLog } from "../../core/index.ts"

/** The whole audit record, newest first. */
export const auditRecord = Effect.flatMap(AuditLog, (log) => log.page({}, 1000))

/**
 * Runs `self` and answers its result, the entries it added to the record (oldest first), and the
 * entries it asked the log to relay: a change must relay exactly the entry its write carried.
 */
export const audited = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const log = yield* AuditLog
    const before = new Set((yield* auditRecord).map((entry) => entry.id))
    const relayed: Array<AuditEntry> = []
    const recording = AuditLog.of({
      ...log,
      relay: (entry) =>
        Effect.suspend(() => {
          relayed.push(entry)
          return log.relay(entry)
        })
    })
    const result = yield* Effect.provideService(self, AuditLog, recording)
    const added = (yield* auditRecord).filter((entry) => !before.has(entry.id)).reverse()
    return { result, added, relayed }
  })

/** The one entry `self` added, which it also relayed; fails the test if there is not exactly one. */
export const theEntryOf = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.map(audited(self), ({ result, added, relayed }) => {
    assert.lengthOf(added, 1, "one entry")
    assert.deepStrictEqual(relayed, added, "the entry written is the entry relayed")
    return { result, entry: added[0] as AuditEntry }
  })

/** Asserts that `self` recorded and relayed nothing. */
export const assertUnrecorded = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.map(audited(self), ({ result, added, relayed }) => {
    assert.lengthOf(added, 0, "no entry")
    assert.lengthOf(relayed, 0, "nothing relayed")
    return result
  })
