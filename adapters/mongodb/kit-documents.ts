import { DateTime, Schema } from "effect"
import type { Document, Filter, Sort } from "mongodb"
import {
  type AnyOf,
  type ColumnValue,
  columnOf,
  conditionsOf,
  isAnyOf,
  isRange,
  keyOf,
  type Order,
  type Resource,
  type Where
} from "../resources/resource.ts"
import { escapeRegExp } from "./member-filter.ts"

/** What the protocol and the kit keep on a document beside the record (see the consistency README). */
const kept = new Set(["_id", "outbox", "removed", "_rev", "slot"])

/** A column's value as a query names it: an instant as a date, none as null. */
export const mongoValueOf = (value: ColumnValue): unknown =>
  value === undefined ? null : DateTime.isDateTime(value) ? DateTime.toDateUtc(value) : value

/** The record's encoded form with each instant the record holds as a date, where the record holds it. */
const withDates = (decoded: unknown, encoded: unknown): unknown => {
  if (DateTime.isDateTime(decoded)) return DateTime.toDateUtc(decoded)
  if (Array.isArray(decoded) && Array.isArray(encoded))
    return encoded.map((item, i) => withDates(decoded[i], item))
  if (typeof decoded === "object" && decoded !== null && typeof encoded === "object" && encoded !== null) {
    const source = decoded as Record<string, unknown>
    return Object.fromEntries(
      Object.entries(encoded).map(([name, value]) => [name, withDates(source[name], value)])
    )
  }
  return encoded
}

/** A stored value with each date as the instant's JSON form, as the record's schema reads it. */
const withoutDates = (stored: unknown): unknown => {
  if (stored instanceof Date) return stored.toISOString()
  if (Array.isArray(stored)) return stored.map(withoutDates)
  if (typeof stored === "object" && stored !== null) {
    return Object.fromEntries(Object.entries(stored).map(([name, value]) => [name, withoutDates(value)]))
  }
  return stored
}

/**
 * A resource's documents: the record as its schema encodes it to JSON, instants as dates (so the
 * server orders and compares them as such), the key as `_id` (in place of the key field, when the
 * key is a field), and each derived column as a field of its own.
 */
export const documentsOf = <R extends object>(declared: Resource<R>) => {
  const json = Schema.toCodecJson(declared.schema)
  const encode = Schema.encodeSync(json)
  const decode = Schema.decodeUnknownSync(json)
  const keyField = typeof declared.key === "string" ? declared.key : undefined
  const derived = Object.keys(declared.derived ?? {})
  const field = (column: string) => (column === keyField ? "_id" : column)

  const toDocument = (record: R): Document => {
    const encoded = withDates(record, encode(record)) as Record<string, unknown>
    const { [keyField ?? "_id"]: _key, ...fields } = encoded
    const document: Record<string, unknown> = { _id: keyOf(declared, record), ...fields }
    for (const column of derived) document[column] = mongoValueOf(columnOf(declared, column, record))
    return document
  }

  const toRecord = (document: Document): R => {
    const stored: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(document)) {
      if (!kept.has(name) && !derived.includes(name)) stored[name] = withoutDates(value)
    }
    if (keyField !== undefined) stored[keyField] = document._id
    return decode(declared.earlier === undefined ? stored : declared.earlier(stored))
  }

  /** The fields a document of `record` sets, and those of the schema it leaves out (to unset). */
  const changeTo = (record: R) => {
    const { _id, ...set } = toDocument(record)
    const unset = Object.fromEntries(
      Object.keys(declared.schema.fields)
        .filter((name) => name !== keyField && !(name in set))
        .map((name) => [name, ""] as const)
    )
    return { set, unset }
  }

  const filterOf = (where: AnyOf<string>): Filter<Document> =>
    isAnyOf(where)
      ? { $or: where.length === 0 ? [{ _id: { $in: [] } }] : where.map(clauseOf) }
      : clauseOf(where)

  const clauseOf = (where: Where<string>): Filter<Document> => {
    const all: Array<Filter<Document>> = []
    for (const [column, condition] of conditionsOf(where)) {
      const name = field(column)
      if (!isRange(condition)) {
        all.push({ [name]: mongoValueOf(condition) })
        continue
      }
      const range: Record<string, unknown> = {}
      if (condition.lt !== undefined) range.$lt = mongoValueOf(condition.lt)
      if (condition.lte !== undefined) range.$lte = mongoValueOf(condition.lte)
      if (condition.gt !== undefined) range.$gt = mongoValueOf(condition.gt)
      if (condition.gte !== undefined) range.$gte = mongoValueOf(condition.gte)
      if (condition.in !== undefined) range.$in = condition.in.map(mongoValueOf)
      if (condition.present === true) range.$ne = null
      // `$nin` alone finds the documents holding none: they are left out, as on every store.
      if (condition.notIn !== undefined) {
        range.$nin = condition.notIn.map(mongoValueOf)
        range.$ne = null
      }
      if (condition.startsWith !== undefined) {
        range.$regex = `^${escapeRegExp(condition.startsWith)}`
        range.$options = "i"
      }
      // An array field equal to a value is one holding it among its values.
      if (condition.includes !== undefined) all.push({ [name]: condition.includes })
      const holds = Object.keys(range).length === 0 ? {} : { [name]: range }
      all.push(condition.orNone === true ? { $or: [{ [name]: null }, holds] } : holds)
    }
    return all.length === 0 ? {} : all.length === 1 ? (all[0] as Filter<Document>) : { $and: all }
  }

  const orderOf = (order: Order<R, string>): { readonly sort: Sort; readonly after: Filter<Document> } => {
    const direction = order.descending === true ? -1 : 1
    const names = [...order.by.map(field), "_id"]
    const sort = Object.fromEntries(names.map((name) => [name, direction])) as Sort
    if (order.after === undefined) return { sort, after: {} }
    const place = [
      ...order.by.map((column) => mongoValueOf(columnOf(declared, column, order.after as R))),
      keyOf(declared, order.after as R)
    ]
    const beyond = direction === 1 ? "$gt" : "$lt"
    const after = {
      $or: names.map((name, i) => ({
        ...Object.fromEntries(names.slice(0, i).map((earlier, j) => [earlier, place[j]])),
        [name]: { [beyond]: place[i] }
      }))
    }
    return { sort, after }
  }

  return { toDocument, toRecord, changeTo, filterOf, orderOf, field }
}
