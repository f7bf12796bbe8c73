import { Effect, Layer } from "effect"
import { EventSource } from "../../core/index.ts"
import { toEntry } from "./audit-log.ts"
import { SqliteDatabase } from "./database.ts"

/** The record's entries marked unsent when they were appended, with their change, in its transaction. */
export const eventSourceLayer = Layer.effect(
  EventSource,
  Effect.gen(function* () {
    const { read, write } = yield* SqliteDatabase
    return EventSource.of({
      unsent: (limit) =>
        read((db) =>
          db
            .all("SELECT document FROM audit_events WHERE unsent = 1 ORDER BY at, id LIMIT ?", limit)
            .map(toEntry)
        ),
      markSent: (ids) =>
        ids.length === 0
          ? Effect.void
          : write((db) => {
              db.run(
                `UPDATE audit_events SET unsent = NULL WHERE id IN (${ids.map(() => "?").join(", ")})`,
                ...ids
              )
            })
    })
  })
)
