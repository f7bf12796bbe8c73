import { DateTime } from "effect"
import {
  type ColumnValue,
  type Condition,
  columnOf,
  isRange,
  keyOf,
  type Order,
  type Resource,
  type Where
} from "./resource.ts"

/** A column's value as compared: an instant by its milliseconds, values by their JSON, none as null. */
export const comparable = (value: ColumnValue): string | number | boolean | null =>
  value === undefined || value === null
    ? null
    : DateTime.isDateTime(value)
      ? DateTime.toEpochMillis(value)
      : Array.isArray(value)
        ? JSON.stringify(value)
        : (value as string | number | boolean)

const compare = (a: ColumnValue, b: ColumnValue): number => {
  const x = comparable(a)
  const y = comparable(b)
  if (x === y) return 0
  if (x === null) return -1
  if (y === null) return 1
  return x < y ? -1 : 1
}

const holds = (value: ColumnValue, condition: Condition): boolean => {
  if (!isRange(condition)) return compare(value, condition) === 0
  if (comparable(value) === null) return condition.orNone === true
  if (condition.in !== undefined && !condition.in.some((member) => compare(value, member) === 0)) return false
  if (condition.notIn?.some((member) => compare(value, member) === 0) === true) return false
  if (condition.includes !== undefined && !(Array.isArray(value) && value.includes(condition.includes)))
    return false
  if (
    condition.startsWith !== undefined &&
    !(typeof value === "string" && value.toLowerCase().startsWith(condition.startsWith.toLowerCase()))
  )
    return false
  if (condition.lt !== undefined && !(compare(value, condition.lt) < 0)) return false
  if (condition.lte !== undefined && !(compare(value, condition.lte) <= 0)) return false
  if (condition.gt !== undefined && !(compare(value, condition.gt) > 0)) return false
  if (condition.gte !== undefined && !(compare(value, condition.gte) >= 0)) return false
  return true
}

/** Whether `record` meets every condition of `where`. */
export const matches = <R extends object>(
  declared: Resource<R>,
  where: Where<string>,
  record: R
): boolean => {
  // A loop over the where as it is, with no list of its entries made: a lookup asks it per request.
  for (const column in where) {
    const condition = where[column]
    if (condition !== undefined && !holds(columnOf(declared, column, record), condition)) return false
  }
  return true
}

/** `records` in the order's order (its columns, then the key), from after `order.after`, at most `order.limit`. */
export const ordered = <R extends object>(
  declared: Resource<R>,
  records: Iterable<R>,
  order: Order<R, string>
): ReadonlyArray<R> => {
  const all = Array.isArray(records) ? (records as ReadonlyArray<R>) : [...records]
  // The catalog's product permissions are listed on each request of a caller holding every
  // permission; most deployments declare none.
  if (all.length === 0) return all
  const direction = order.descending === true ? -1 : 1
  const place = (record: R): ReadonlyArray<ColumnValue> => [
    ...order.by.map((column) => columnOf(declared, column, record)),
    keyOf(declared, record)
  ]
  const byPlace = (a: ReadonlyArray<ColumnValue>, b: ReadonlyArray<ColumnValue>) => {
    for (let i = 0; i < a.length; i++) {
      const difference = compare(a[i], b[i])
      if (difference !== 0) return difference * direction
    }
    return 0
  }
  const after = order.after === undefined ? undefined : place(order.after as R)
  const sorted = all
    .map((record) => ({ record, at: place(record) }))
    .filter(({ at }) => after === undefined || byPlace(at, after) > 0)
    .sort((a, b) => byPlace(a.at, b.at))
    .map(({ record }) => record)
  return order.limit === undefined ? sorted : sorted.slice(0, order.limit)
}
