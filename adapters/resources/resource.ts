import type { DateTime, Schema } from "effect"
import type { AuditTarget, SealedSecret } from "../../core/index.ts"

/** One value a column holds or is compared with. */
export type ScalarValue = string | number | boolean | DateTime.Utc | null | undefined

/**
 * What a column holds: a record's field, or a value made of the record, that it is found or ordered
 * by; or a set or array field's values, found by one of them (`includes`), never ordered by.
 */
export type ColumnValue = ScalarValue | ReadonlyArray<string | number>

/** Where a record's sealed secrets are, so that `rotate-secrets` can seal them again. */
export interface SealedFields<R> {
  /** The sealed secrets the record holds. */
  readonly of: (record: R) => ReadonlyArray<SealedSecret>
  /** The record with `to` in the place of `from`. */
  readonly replace: (record: R, from: SealedSecret, to: SealedSecret) => R
}

/**
 * How every store keeps one kind of record: a declaration each kit (memory, SQLite, MongoDB) turns
 * into its table or collection, its indexes, its migration and, for a resource whose changes are
 * audited, where its entries wait for the relay. `columns` are what records are found or ordered
 * by: each a field of the record, or a value `derived` from it (a unique key while pending, say).
 */
export interface Resource<R extends object, C extends string = string> {
  /** The table or collection. */
  readonly name: string
  /** The record as stored and read back: one schema, both ways. */
  readonly schema: Schema.Codec<R, unknown> & { readonly fields: object }
  /** The field that is the record's identity, unique in the deployment; or one made of the record. */
  readonly key: (keyof R & string) | ((record: R) => string)
  readonly columns: ReadonlyArray<C>
  readonly derived?: { readonly [K in C]?: (record: R) => string | number | null }
  /** Combinations of columns no two records share. */
  readonly unique?: ReadonlyArray<ReadonlyArray<C>>
  /** Combinations of columns records are found by (a list's order last). */
  readonly indexes?: ReadonlyArray<ReadonlyArray<C>>
  /** At most `max` records share a value of `column` (an organisation's endpoints, say). */
  readonly capacity?: { readonly column: C; readonly max: number }
  /** The audit target whose entries wait on this resource's records until relayed. */
  readonly audit?: AuditTarget["type"]
  readonly sealed?: SealedFields<R>
  /** What a record stored by an earlier version lacks, filled in (before decoding) as it is read. */
  readonly earlier?: (stored: Record<string, unknown>) => Record<string, unknown>
}

/**
 * Declares a resource: the one place that says how its records are kept, whatever the store. A
 * column that is neither a field of the schema nor derived is a mistake, refused at once.
 */
export const resource = <R extends object, const C extends string>(declared: Resource<R, C>) => {
  for (const column of declared.columns) {
    if (!(column in declared.schema.fields) && declared.derived?.[column] === undefined) {
      throw new Error(`${declared.name}: column ${column} is no field of the record, nor derived`)
    }
  }
  return declared
}

/**
 * A condition on a column: a value it equals (none: it holds none), or a range or a set it is in
 * (or out of: `notIn`); for a set or array field, a value among its values (`includes`).
 */
export type Condition =
  | ScalarValue
  | {
      readonly lt?: ScalarValue
      readonly lte?: ScalarValue
      readonly gt?: ScalarValue
      readonly gte?: ScalarValue
      readonly in?: ReadonlyArray<ScalarValue>
      /** Holds a value, none of these (none held meets it only with `orNone`, as every range). */
      readonly notIn?: ReadonlyArray<ScalarValue>
      readonly includes?: string | number
      /**
       * A text starting with this one, whatever the case (as each store folds it: memory by Unicode,
       * SQLite's LIKE and MongoDB's regex as they do).
       */
      readonly startsWith?: string
      /** Holds some value (is not none). */
      readonly present?: true
      /** Or holds none. */
      readonly orNone?: true
    }

/** Conditions on columns, all of which must hold: `null` holds none, `undefined` is no condition. */
export type Where<C extends string> = { readonly [K in C]?: Condition }

/** Where clauses any of which a record meets (none: no record); one clause is the common case. */
export type AnyOf<C extends string> = Where<C> | ReadonlyArray<Where<C>>

/** Whether a where is several clauses, any of which may hold. */
export const isAnyOf = <C extends string>(where: AnyOf<C>): where is ReadonlyArray<Where<C>> =>
  Array.isArray(where)

/** The conditions of a where clause, leaving out the columns it sets no condition on. */
export const conditionsOf = (where: Where<string>): ReadonlyArray<readonly [string, Condition]> =>
  Object.entries(where).filter(([, condition]) => condition !== undefined)

/** How a list is ordered and where it starts: after `after`'s place in that order, the key breaking ties. */
export interface Order<R, C extends string> {
  readonly by: ReadonlyArray<C>
  readonly descending?: boolean
  readonly after?: Partial<R>
  readonly limit?: number
}

export type RangeCondition = Exclude<Condition, ScalarValue>

/** Whether a condition is a range or a set rather than a value to equal. */
export const isRange = (condition: Condition): condition is RangeCondition =>
  typeof condition === "object" && condition !== null && !("epochMilliseconds" in condition)

/** The key of a record, as its resource declares it. */
export const keyOf = <R extends object>(declared: Resource<R>, record: R): string =>
  typeof declared.key === "function" ? declared.key(record) : String(record[declared.key])

/** The value a column holds for a record: the derived value, or the field's. */
export const columnOf = <R extends object>(declared: Resource<R>, column: string, record: R): ColumnValue => {
  const derive = declared.derived?.[column]
  return derive === undefined ? (record[column as keyof R] as ColumnValue) : derive(record)
}
