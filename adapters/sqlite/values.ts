import { DateTime } from "effect"
import type { SqlValue } from "./connection.ts"

/** An instant as stored: epoch milliseconds. */
export const millis = (instant: DateTime.DateTime) => DateTime.toEpochMillis(instant)

export const instantOf = (stored: SqlValue | undefined) => DateTime.makeUnsafe(Number(stored))

/** A flag as stored: 1 or 0. */
export const flag = (value: boolean) => (value ? 1 : 0)

export const isSet = (stored: SqlValue | undefined) => Number(stored) === 1

export const text = (stored: SqlValue | undefined) => String(stored)

export const int = (stored: SqlValue | undefined) => Number(stored)

/** A column that may be NULL, as an optional field: absent when NULL. */
export const optional = <A>(stored: SqlValue | undefined, read: (value: SqlValue) => A): A | undefined =>
  stored === null || stored === undefined ? undefined : read(stored)
