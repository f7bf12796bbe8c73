import { DateTime, Option, Schema } from "effect"
import type { Row, SqlValue } from "./connection.ts"

/** An instant as stored: epoch milliseconds. */
export const millis = (instant: DateTime.DateTime) => DateTime.toEpochMillis(instant)

export const instantOf = (stored: SqlValue | undefined) => DateTime.makeUnsafe(Number(stored))

/** A flag as stored: 1 or 0. */
export const flag = (value: boolean) => (value ? 1 : 0)

export const isSet = (stored: SqlValue | undefined) => Number(stored) === 1

export const text = (stored: SqlValue | undefined) => String(stored)

export const int = (stored: SqlValue | undefined) => Number(stored)

/** Text, or null where the column holds none. */
export const optionalText = (stored: SqlValue | undefined) =>
  stored === null || stored === undefined ? null : String(stored)

/** A column that may be NULL, as an optional field: absent when NULL. */
export const optional = <A>(stored: SqlValue | undefined, read: (value: SqlValue) => A): A | undefined =>
  stored === null || stored === undefined ? undefined : read(stored)

/** A column holding a value whole as JSON, through the one Schema that writes and reads it. */
export const jsonColumn = <S extends Schema.Codec<unknown, unknown>>(schema: S) => {
  const json = Schema.fromJsonString(Schema.toCodecJson(schema))
  return { encode: Schema.encodeSync(json), decode: Schema.decodeUnknownSync(json) }
}

/** A WHERE clause built condition by condition, its bound parameters in the same order. */
export const whereClause = (first: string, ...firstValues: ReadonlyArray<SqlValue>) => {
  const conditions = [first]
  const params: Array<SqlValue> = [...firstValues]
  return {
    and: (condition: string, ...values: ReadonlyArray<SqlValue>) => {
      conditions.push(condition)
      params.push(...values)
    },
    sql: () => conditions.join(" AND "),
    params
  }
}

/** A LIKE pattern for a case-insensitive prefix, its wildcards escaped (with `ESCAPE '\\'`). */
export const likePrefix = (text: string) => `${text.toLowerCase().replace(/[\\%_]/gu, "\\$&")}%`

/** Options for a value built from a row: its fields were checked when it was written, not again on every read. */
export const rowChecked = { disableChecks: true } as const

/** The value a lookup's row makes, none when no row matched. */
export const optionalRow = <A>(row: Row | undefined, to: (row: Row) => A): Option.Option<A> =>
  Option.map(Option.fromNullishOr(row), to)
