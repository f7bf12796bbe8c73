import { Effect, Layer, Option } from "effect"
import type { AuditEntry } from "../../core/index.ts"
import { comparable, matches, ordered } from "../resources/in-process.ts"
import { openOnce } from "../resources/open-once.ts"
import { Full, type KitRecords, type OpenedResource, RecordKit, Taken } from "../resources/records.ts"
import {
  type AnyOf,
  type ColumnValue,
  type Condition,
  columnOf,
  isAnyOf,
  isRange,
  keyOf,
  type Resource,
  type Where
} from "../resources/resource.ts"
import { MemoryAuditTrail } from "./audit-log.ts"

/** A unique combination's value for a record: its columns' values, or none when one of them holds none. */
const comboOf = <R extends object>(declared: Resource<R>, columns: ReadonlyArray<string>, record: R) => {
  const values = columns.map((column) => comparable(columnOf(declared, column, record)))
  return values.includes(null) ? undefined : JSON.stringify(values)
}

/**
 * A resource's records in process memory: a map by key, one map per unique combination (so a
 * lookup by one costs what a key does), the audit trail written with each change. Every operation
 * runs whole, synchronously: none interleaves with another.
 */
const recordsOf = <R extends object, C extends string>(
  declared: Resource<R, C>,
  trail: MemoryAuditTrail["Service"]
): KitRecords<R, C> => {
  const byKey = new Map<string, R>()
  const uniques = (declared.unique ?? []).map((columns) => ({ columns, keys: new Map<string, string>() }))
  const takenBy = (record: R, except?: string) => {
    const key = keyOf(declared, record)
    if (except === undefined && byKey.has(key))
      return new Taken({ resource: declared.name, columns: ["key"] })
    for (const { columns, keys } of uniques) {
      const combo = comboOf(declared, columns, record)
      const holder = combo === undefined ? undefined : keys.get(combo)
      if (holder !== undefined && holder !== except && holder !== key) {
        return new Taken({ resource: declared.name, columns })
      }
    }
    return undefined
  }
  const full = (record: R) => {
    const capacity = declared.capacity
    if (capacity === undefined) return false
    const value = comparable(columnOf(declared, capacity.column, record))
    let held = 0
    for (const other of byKey.values())
      if (comparable(columnOf(declared, capacity.column, other)) === value) held++
    return held >= capacity.max
  }
  const unindex = (record: R) => {
    for (const { columns, keys } of uniques) {
      const combo = comboOf(declared, columns, record)
      if (combo !== undefined) keys.delete(combo)
    }
  }
  const save = (record: R) => {
    const key = keyOf(declared, record)
    const before = byKey.get(key)
    if (before !== undefined) unindex(before)
    byKey.set(key, record)
    for (const { columns, keys } of uniques) {
      const combo = comboOf(declared, columns, record)
      if (combo !== undefined) keys.set(combo, key)
    }
  }
  const drop = (record: R) => {
    unindex(record)
    byKey.delete(keyOf(declared, record))
  }
  /** The value `where` sets `column` equal to (`null`: holding none); `undefined` when it sets none. */
  const equalTo = (where: Where<C>, column: string): ColumnValue | undefined => {
    const condition = (where as Readonly<Record<string, Condition | undefined>>)[column]
    return condition === undefined || isRange(condition) ? undefined : condition
  }
  /**
   * The records `where` may find: one by key or by a unique combination when it names one, else
   * all. Read from `where` as it is: it is asked on every request that authenticates with a key.
   */
  const candidates = (where: Where<C>): Iterable<R> => {
    const key = typeof declared.key === "string" ? equalTo(where, declared.key) : undefined
    if (key !== undefined) {
      const found = byKey.get(String(key))
      return found === undefined ? [] : [found]
    }
    for (const { columns, keys } of uniques) {
      const named = columns.map((column) => equalTo(where, column))
      if (named.includes(undefined)) continue
      const values = named.map(comparable)
      const holder = values.includes(null) ? undefined : keys.get(JSON.stringify(values))
      const found = holder === undefined ? undefined : byKey.get(holder)
      return found === undefined ? [] : [found]
    }
    return byKey.values()
  }
  const first = (where: Where<C>) => {
    for (const record of candidates(where)) if (matches(declared, where, record)) return record
    return undefined
  }
  /** The records any clause finds, each once; one clause is read as it is, with no copy of `where`. */
  const found = (where: AnyOf<C>): Iterable<R> => {
    if (!isAnyOf(where)) {
      const all: Array<R> = []
      for (const record of candidates(where)) if (matches(declared, where, record)) all.push(record)
      return all
    }
    const all = new Set<R>()
    for (const clause of where)
      for (const record of candidates(clause)) if (matches(declared, clause, record)) all.add(record)
    return all
  }
  const append = (entry: AuditEntry | undefined) => trail.append(entry)
  return {
    insert: (record, entry) =>
      Effect.suspend((): Effect.Effect<void, Taken | Full> => {
        const taken = takenBy(record)
        if (taken !== undefined) return Effect.fail(taken)
        if (full(record)) return Effect.fail(new Full({ resource: declared.name }))
        save(record)
        append(entry)
        return Effect.void
      }),
    insertNew: (records) =>
      Effect.sync(() => {
        for (const record of records) if (takenBy(record) === undefined && !full(record)) save(record)
      }),
    put: (record, entry) =>
      Effect.suspend(() => {
        const taken = takenBy(record, keyOf(declared, record))
        if (taken !== undefined) return Effect.fail(taken)
        save(record)
        append(entry)
        return Effect.void
      }),
    find: (where) =>
      Effect.sync(() => {
        if (!isAnyOf(where)) return Option.fromNullishOr(first(where))
        for (const clause of where) {
          const record = first(clause)
          if (record !== undefined) return Option.some(record)
        }
        return Option.none()
      }),
    list: (where, order) => Effect.sync(() => ordered(declared, found(where), order)),
    count: (where) =>
      Effect.sync(() => {
        let counted = 0
        for (const record of candidates(where)) if (matches(declared, where, record)) counted++
        return counted
      }),
    modifyOrTaken: (where, change, entry) =>
      Effect.suspend(() => {
        const before = first(where)
        if (before === undefined) return Effect.succeed(Option.none())
        const after = change(before)
        if (after === undefined) return Effect.succeed(Option.some({ before, after: before, changed: false }))
        const taken = takenBy(after, keyOf(declared, before))
        if (taken !== undefined) return Effect.fail(taken)
        if (keyOf(declared, after) !== keyOf(declared, before)) drop(before)
        save(after)
        append(entry)
        return Effect.succeed(Option.some({ before, after, changed: true }))
      }),
    modifyAll: (where, change) =>
      Effect.sync(() => {
        let changed = 0
        for (const before of [...candidates(where)]) {
          const after = matches(declared, where, before) ? change(before) : undefined
          if (after === undefined) continue
          const taken = takenBy(after, keyOf(declared, before))
          if (taken !== undefined) throw taken
          if (keyOf(declared, after) !== keyOf(declared, before)) drop(before)
          save(after)
          changed++
        }
        return changed
      }),
    remove: (where, entry) =>
      Effect.sync(() => {
        const found = first(where)
        if (found === undefined) return Option.none()
        drop(found)
        append(entry)
        return Option.some(found)
      }),
    removeAll: (where) =>
      Effect.sync(() => {
        for (const record of [...candidates(where)]) if (matches(declared, where, record)) drop(record)
      })
  }
}

/**
 * The in-memory kit: each resource opened once per build (the stores that share a resource, the
 * endpoints and their deliveries say, share its records), its changes written to the build's trail.
 */
export const memoryKitLayer = Layer.effect(
  RecordKit,
  Effect.gen(function* () {
    const trail = yield* MemoryAuditTrail
    const opened = new Map<string, OpenedResource>()
    const sequences = new Map<string, number>()
    return RecordKit.of({
      open: openOnce(
        () => Effect.void,
        (declared) => recordsOf(declared, trail),
        opened
      ),
      opened: Effect.sync(() => [...opened.values()]),
      next: (sequence) =>
        Effect.sync(() => {
          const value = (sequences.get(sequence) ?? 0) + 1
          sequences.set(sequence, value)
          return value
        })
    })
  })
)
