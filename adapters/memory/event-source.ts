import { Effect, Layer } from "effect"
import { EventSource } from "../../core/index.ts"
import { entryAt, MemoryAuditTrail } from "./audit-log.ts"

/** The in-memory record's announced entries, marked unsent as they are appended. */
export const eventSourceLayer = Layer.effect(
  EventSource,
  Effect.gen(function* () {
    const trail = yield* MemoryAuditTrail
    return EventSource.of({
      unsent: (limit) =>
        Effect.sync(() => {
          const entries = []
          for (const index of trail.unsent.values()) {
            if (entries.length === limit) break
            entries.push(entryAt(trail.columns, index))
          }
          return entries
        }),
      markSent: (ids) =>
        Effect.sync(() => {
          for (const id of ids) trail.unsent.delete(id)
        })
    })
  })
)
