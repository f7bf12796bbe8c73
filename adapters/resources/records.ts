import { Context, Data, Effect, type Option } from "effect"
import type { AuditEntry, SealedSecret, StoreUnavailable } from "../../core/index.ts"
import type { AnyOf, Order, Resource, Where } from "./resource.ts"

/** Another record holds the key or a unique combination of columns (`columns`) already. */
export class Taken extends Data.TaggedError("Taken")<{
  readonly resource: string
  readonly columns: ReadonlyArray<string>
}> {}

/** As many records share the capacity column's value as the resource allows. */
export class Full extends Data.TaggedError("Full")<{ readonly resource: string }> {}

/** A record as a change found it and as it left it (the same when the change changed nothing). */
export interface Changed<R> {
  readonly before: R
  readonly after: R
  readonly changed: boolean
}

/**
 * One resource's records in a store. Every write is one atomic write of the store, the audit
 * entry it is handed included; what `modify` changes is the record as it is at the write, whatever
 * the number of instances. A removed record is gone for every read at once.
 */
export interface Records<R, C extends string> {
  readonly insert: (record: R, entry?: AuditEntry) => Effect.Effect<void, Taken | Full | StoreUnavailable>
  /** Adds, in one write, each of `records` that no key or unique column refuses; the others are left. */
  readonly insertNew: (records: ReadonlyArray<R>) => Effect.Effect<void, StoreUnavailable>
  /** Writes the record, in place of the one with its key if there is one. */
  readonly put: (record: R, entry?: AuditEntry) => Effect.Effect<void, Taken | StoreUnavailable>
  /**
   * The first record `where` finds (any of its clauses, the first first); `hot` for the reads on
   * every request's path, which a store may remember.
   */
  readonly find: (
    where: AnyOf<C>,
    options?: { readonly hot?: boolean }
  ) => Effect.Effect<Option.Option<R>, StoreUnavailable>
  readonly list: (where: AnyOf<C>, order: Order<R, C>) => Effect.Effect<ReadonlyArray<R>, StoreUnavailable>
  readonly count: (where: Where<C>) => Effect.Effect<number, StoreUnavailable>
  /**
   * Changes the record `where` finds as `change` makes it (undefined: no change), writing `entry`
   * with it when it changes. None when no record is found.
   */
  readonly modify: (
    where: Where<C>,
    change: (record: R) => R | undefined,
    entry?: AuditEntry
  ) => Effect.Effect<Option.Option<Changed<R>>, StoreUnavailable>
  /** `modify`, refused (`Taken`) when another record holds a unique combination the change gives it. */
  readonly modifyOrTaken: (
    where: Where<C>,
    change: (record: R) => R | undefined,
    entry?: AuditEntry
  ) => Effect.Effect<Option.Option<Changed<R>>, Taken | StoreUnavailable>
  /**
   * Changes every record `where` finds as `change` makes it (undefined: no change), recording
   * nothing; answers how many it changed. Each record's change is made of it as it is at its write
   * (MongoDB writes them one by one, SQLite, PostgreSQL and memory in one write). The change keeps
   * the record's key and unique columns: a refusal there is a defect.
   */
  readonly modifyAll: (
    where: Where<C>,
    change: (record: R) => R | undefined
  ) => Effect.Effect<number, StoreUnavailable>
  /** Removes the record `where` finds, with `entry`; answers it, none when there is none. */
  readonly remove: (where: Where<C>, entry?: AuditEntry) => Effect.Effect<Option.Option<R>, StoreUnavailable>
  /** Removes every record `where` finds, recording nothing. */
  readonly removeAll: (where: Where<C>) => Effect.Effect<void, StoreUnavailable>
}

/** A resource a kit opened, with its records. */
export interface OpenedResource {
  // biome-ignore lint/suspicious/noExplicitAny: a kit holds resources of every record type
  readonly declared: Resource<any, string>
  // biome-ignore lint/suspicious/noExplicitAny: a kit holds resources of every record type
  readonly records: Records<any, string>
}

/**
 * Each store's kit: a resource's declaration opened as its records in that store, once per build
 * (the stores that share a resource share its records); `opened` lists them, for what spans every
 * resource (sealing secrets again, relaying their entries).
 */
export class RecordKit extends Context.Service<
  RecordKit,
  {
    readonly open: <R extends object, C extends string>(
      resource: Resource<R, C>
    ) => Effect.Effect<Records<R, C>, StoreUnavailable>
    readonly opened: Effect.Effect<ReadonlyArray<OpenedResource>>
    /**
     * The next integer of the named sequence, 1 first, from one atomic write of the store: the
     * instances on one database never get the same one; one a failed write took is skipped, never
     * given again (ids may skip, never repeat).
     */
    readonly next: (sequence: string) => Effect.Effect<number, StoreUnavailable>
  }
>()("roster/resources/RecordKit") {}

/** A sealed secret where a record keeps it: what `rotate-secrets` seals again. */
export interface SealedInPlace {
  readonly resource: string
  readonly key: string
  readonly sealed: SealedSecret
}

/** A write no key, unique column or capacity can refuse: a refusal there is a bug, a defect. */
export const refusalIsDefect = <A, E, R>(
  effect: Effect.Effect<A, E | Taken | Full, R>
): Effect.Effect<A, Exclude<E, Taken | Full>, R> =>
  Effect.catchIf(
    effect,
    (error): error is Taken | Full => error instanceof Taken || error instanceof Full,
    (refusal) => Effect.die(refusal)
  ) as Effect.Effect<A, Exclude<E, Taken | Full>, R>

/** What a kit makes of a resource: its records but `modify`, which is `modifyOrTaken` with no refusal. */
export type KitRecords<R, C extends string> = Omit<Records<R, C>, "modify">

/** A kit's records, whole: `modify` refuses nothing, so a refusal there is a defect. */
export const withModify = <R, C extends string>(records: KitRecords<R, C>): Records<R, C> => ({
  ...records,
  modify: (where, change, entry) => refusalIsDefect(records.modifyOrTaken(where, change, entry))
})
