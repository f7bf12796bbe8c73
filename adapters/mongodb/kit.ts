import { Effect, Layer, Option } from "effect"
import type { Collection, Document, Filter, UpdateFilter } from "mongodb"
import type { StoreUnavailable } from "../../core/index.ts"
import { openOnce } from "../resources/open-once.ts"
import {
  Full,
  type KitRecords,
  type OpenedResource,
  RecordKit,
  type Records,
  Taken
} from "../resources/records.ts"
import { columnOf, keyOf, type Resource } from "../resources/resource.ts"
import { auditedWrites, notRemoved } from "./consistency/index.ts"
import { nextInSequence } from "./counters.ts"
import { MongoDatabase } from "./database.ts"
import { type DuplicateKey, duplicateIsDefect, query, queryWrite } from "./driver.ts"
import { documentsOf, mongoValueOf } from "./kit-documents.ts"
import { ensureKitIndexes } from "./kit-indexes.ts"

/** How often a change is tried again when another instance changed the record between its read and its write. */
const races = 20

/**
 * A resource's records on MongoDB: each write one atomic document write with its audit entry
 * pending on the document (`auditedWrites`, which the store composition relays); a change is made
 * of the document as read, written only while its revision (`_rev`) is the one read, and read
 * again when another instance changed it meanwhile. Unique indexes hold the unique columns, and a
 * capacity is a unique slot per owner, whatever the number of instances.
 */
const recordsOf = <R extends object, C extends string>(
  declared: Resource<R, C>,
  db: MongoDatabase["Service"]
): KitRecords<R, C> => {
  const writes = auditedWrites<Document & { _id: string }>(db, declared.name)
  const collection = writes.collection as unknown as Collection<Document>
  const documents = documentsOf(declared)
  const live = (where: Parameters<typeof documents.filterOf>[0]): Filter<Document> => ({
    ...documents.filterOf(where),
    ...notRemoved
  })
  const byKey = (record: R) => ({ _id: keyOf(declared, record) }) as unknown as Filter<Document>
  const decode = (document: Document | null) =>
    document === null ? Option.none<R>() : Option.some(documents.toRecord(document))

  /** Which unique combination a refused write shares with a record already there. */
  const takenBy = (record: R) =>
    Effect.gen(function* () {
      if ((yield* query(() => collection.findOne(byKey(record)))) !== null) {
        return new Taken({ resource: declared.name, columns: ["key"] })
      }
      for (const columns of declared.unique ?? []) {
        const filter = Object.fromEntries(
          columns.map((column) => [documents.field(column), mongoValueOf(columnOf(declared, column, record))])
        )
        if ((yield* query(() => collection.findOne(filter))) !== null) {
          return new Taken({ resource: declared.name, columns })
        }
      }
      return new Taken({ resource: declared.name, columns: [] })
    })

  /** Which unique combination a change of `record` shares with another record. */
  const takenByOthers = (record: R) =>
    Effect.gen(function* () {
      for (const columns of declared.unique ?? []) {
        const filter = Object.fromEntries(
          columns.map((column) => [documents.field(column), mongoValueOf(columnOf(declared, column, record))])
        )
        const other = { ...filter, _id: { $ne: keyOf(declared, record) } } as unknown as Filter<Document>
        if ((yield* query(() => collection.findOne(other))) !== null) {
          return new Taken({ resource: declared.name, columns })
        }
      }
      return new Taken({ resource: declared.name, columns: [] })
    })

  /**
   * What a removed record, kept until the relay moves its entry, no longer holds: each unique
   * column, set to a value of its own, so another record may take the value at once.
   */
  const released = (document: Document) =>
    Object.fromEntries(
      (declared.unique ?? [])
        .flat()
        .filter((column) => documents.field(column) !== "_id")
        .map((column) => [documents.field(column), `removed/${String(document._id)}`])
    )

  const capacity = declared.capacity
  /** Tries the free slots in turn: another instance may take one between the read and the write. */
  const insertInSlot = (
    record: R,
    entry: Parameters<Records<R, C>["insert"]>[1]
  ): Effect.Effect<void, Taken | Full | StoreUnavailable | DuplicateKey> =>
    Effect.gen(function* () {
      if (capacity === undefined) return yield* writes.insert(documents.toDocument(record) as never, entry)
      const owner = mongoValueOf(columnOf(declared, capacity.column, record))
      const held = yield* query(() =>
        collection.find({ [capacity.column]: owner }, { projection: { slot: 1 } }).toArray()
      )
      const taken = new Set(held.map((document) => document.slot))
      for (let slot = 0; slot < capacity.max; slot++) {
        if (taken.has(slot)) continue
        const inserted = yield* writes.insert({ ...documents.toDocument(record), slot } as never, entry).pipe(
          Effect.as(true),
          Effect.catchTag("DuplicateKey", () =>
            // The slot was taken meanwhile, or the record is a duplicate: which, the unique columns tell.
            Effect.flatMap(takenBy(record), (refusal) =>
              refusal.columns.length === 0 ? Effect.succeed(false) : Effect.fail(refusal)
            )
          )
        )
        if (inserted) return
      }
      return yield* new Full({ resource: declared.name })
    })

  /** Writes `record` in place of `before` (read at revision `revision`), with `entry`; null when it changed meanwhile. */
  const replace = (before: Document, record: R, entry: Parameters<Records<R, C>["insert"]>[1]) => {
    const { set, unset } = documents.changeTo(record)
    const guard: Filter<Document> = {
      _id: before._id,
      _rev: typeof before._rev === "number" ? before._rev : { $exists: false }
    }
    const change = {
      $set: set,
      $inc: { _rev: 1 },
      ...(Object.keys(unset).length === 0 ? {} : { $unset: unset })
    } as UpdateFilter<Document>
    return writes
      .update(guard as never, change as never, entry)
      .pipe(Effect.catchTag("DuplicateKey", () => Effect.flatMap(takenByOthers(record), Effect.fail)))
  }

  const modifyOrTaken: Records<R, C>["modifyOrTaken"] = (where, change, entry) =>
    Effect.gen(function* () {
      for (let tries = 0; tries < races; tries++) {
        const found = yield* query(() => collection.findOne(live(where)))
        if (found === null) return Option.none()
        const before = documents.toRecord(found)
        const after = change(before)
        if (after === undefined) return Option.some({ before, after: before, changed: false })
        if ((yield* replace(found, after, entry)) !== null)
          return Option.some({ before, after, changed: true })
      }
      return yield* Effect.die(new Error(`${declared.name}: changed by others ${races} times in a row`))
    })

  /** Changes one document found by `where` as `change` makes its record, read again while others change it. */
  const modifyOne = (
    found: Document,
    where: Parameters<typeof live>[0],
    change: (record: R) => R | undefined
  ) =>
    Effect.gen(function* () {
      let current: Document | null = found
      for (let tries = 0; tries < races && current !== null; tries++) {
        const after = change(documents.toRecord(current))
        if (after === undefined) return false
        if ((yield* Effect.catchTag(replace(current, after, undefined), "Taken", Effect.die)) !== null)
          return true
        const again: Document | null = yield* query(() =>
          collection.findOne({ ...live(where), _id: found._id })
        )
        current = again
      }
      if (current === null) return false
      return yield* Effect.die(new Error(`${declared.name}: changed by others ${races} times in a row`))
    })

  return {
    insert: (record, entry) =>
      insertInSlot(record, entry).pipe(
        Effect.catchTag("DuplicateKey", () => Effect.flatMap(takenBy(record), Effect.fail))
      ),
    insertNew: (records) =>
      records.length === 0
        ? Effect.void
        : queryWrite(() =>
            collection.bulkWrite(
              records.map((record) => {
                const document = documents.toDocument(record)
                const [unique] = declared.unique ?? []
                const filter =
                  unique === undefined
                    ? { _id: document._id }
                    : Object.fromEntries(
                        unique.map((column) => [
                          documents.field(column),
                          mongoValueOf(columnOf(declared, column, record))
                        ])
                      )
                return { updateOne: { filter, update: { $setOnInsert: document }, upsert: true } }
              }),
              { ordered: false }
            )
          ).pipe(Effect.asVoid),
    put: (record, entry) =>
      Effect.gen(function* () {
        for (let tries = 0; tries < races; tries++) {
          const found = yield* query(() => collection.findOne({ ...byKey(record), ...notRemoved }))
          if (found === null) {
            const inserted = yield* writes.insert(documents.toDocument(record) as never, entry).pipe(
              Effect.as(true),
              Effect.catchTag("DuplicateKey", () =>
                Effect.flatMap(takenBy(record), (refusal) =>
                  refusal.columns[0] === "key" ? Effect.succeed(false) : Effect.fail(refusal)
                )
              )
            )
            if (inserted) return
          } else if ((yield* replace(found, record, entry)) !== null) return
        }
        return yield* Effect.die(new Error(`${declared.name}: changed by others ${races} times in a row`))
      }),
    find: (where) => query(() => collection.findOne(live(where))).pipe(Effect.map(decode)),
    list: (where, order) => {
      const { sort, after } = documents.orderOf(order)
      return query(() => {
        const found = collection.find({ $and: [live(where), after] }).sort(sort)
        return (order.limit === undefined ? found : found.limit(order.limit)).toArray()
      }).pipe(Effect.map((found) => found.map(documents.toRecord)))
    },
    count: (where) => query(() => collection.countDocuments(live(where))),
    modifyOrTaken,
    modifyAll: (where, change) =>
      query(() => collection.find(live(where)).toArray()).pipe(
        Effect.flatMap((found) => Effect.forEach(found, (document) => modifyOne(document, where, change))),
        Effect.map((changed) => changed.filter(Boolean).length)
      ),
    remove: (where, entry) =>
      entry === undefined
        ? queryWrite(() => collection.findOneAndDelete(live(where))).pipe(Effect.map(decode))
        : Effect.gen(function* () {
            for (let tries = 0; tries < races; tries++) {
              const found = yield* query(() => collection.findOne(live(where)))
              if (found === null) return Option.none()
              const removed = yield* duplicateIsDefect(
                writes.remove({ _id: found._id } as never, entry, released(found))
              )
              if (removed !== null) return decode(removed)
            }
            return yield* Effect.die(new Error(`${declared.name}: removed by others ${races} times in a row`))
          }),
    removeAll: (where) => queryWrite(() => collection.deleteMany(live(where))).pipe(Effect.asVoid)
  }
}

/**
 * The MongoDB kit: a resource opened makes its collection's indexes (unique columns, lookups, the
 * capacity's slots), once per build; documents an earlier version stored are read as they are.
 */
export const mongoKitLayer = Layer.effect(
  RecordKit,
  Effect.gen(function* () {
    const db = yield* MongoDatabase
    const opened = new Map<string, OpenedResource>()
    return RecordKit.of({
      open: openOnce(
        (declared) => ensureKitIndexes(db, declared),
        (declared) => recordsOf(declared, db),
        opened
      ),
      opened: Effect.sync(() => [...opened.values()]),
      // The collection the hand-written stores allocated their ids from: a sequence goes on from there.
      next: (sequence) => nextInSequence(db, sequence)
    })
  })
)
