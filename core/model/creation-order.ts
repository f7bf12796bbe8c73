import { DateTime } from "effect"

interface Created {
  readonly id: string
  readonly createdAt: DateTime.Utc
}

/** Oldest first by creation time, the id breaking ties between records created in the same instant. */
export const byCreation = (a: Created, b: Created): number =>
  DateTime.toEpochMillis(a.createdAt) - DateTime.toEpochMillis(b.createdAt) ||
  (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

export const isOlderThan = (a: Created, b: Created): boolean => byCreation(a, b) < 0
