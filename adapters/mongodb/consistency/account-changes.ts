import { Effect } from "effect"
import type { Db, Filter, UpdateFilter } from "mongodb"
import {
  type AuditEntry,
  DuplicateEmail,
  DuplicateUsername,
  type StoreUnavailable
} from "../../../core/index.ts"
import { attemptWrite, query, queryWrite } from "../driver.ts"
import { accountCopies } from "./account-copies.ts"
import type { AccountDocument, MembershipDocument } from "./account-documents.ts"
import { type AuditEntryDocument, notRemoved, pushEntry } from "./audit-document.ts"
import { copyEntries } from "./relay-batches.ts"
import { noteLeft } from "./relay-hints.ts"
import { sessionFences } from "./session-fences.ts"
import { abandonedAfter } from "./timeouts.ts"

/**
 * The writes that keep an account and its memberships in step. The account is the truth; its
 * memberships copy what lists filter on, and sessions' snapshots copy them, so every change of an
 * account goes behind a fence on its memberships and their sessions.
 */
export const accountChanges = (db: Db) => {
  const accounts = db.collection<AccountDocument>("accounts")
  const members = db.collection<MembershipDocument>("members")
  const fences = sessionFences(db)
  const copied = accountCopies(db)
  /** The server need not say which unique index refused a write; which value another account holds does. */
  const conflictOf = (id: string, fields: { readonly email?: string; readonly username?: string }) =>
    query(() =>
      fields.email === undefined
        ? Promise.resolve(0)
        : accounts.countDocuments({ email: fields.email, _id: { $ne: id } }, { limit: 1 })
    ).pipe(
      Effect.flatMap((emailTaken) =>
        Effect.fail<DuplicateEmail | DuplicateUsername>(
          emailTaken > 0
            ? new DuplicateEmail({ email: fields.email ?? "" })
            : new DuplicateUsername({ username: fields.username ?? "" })
        )
      )
    )

  /** Takes away an account no membership holds any more, with the entries still on it. */
  const dropOrphan = (account: AccountDocument) => {
    // Entries still on it (moved already but not yet cleared, or not yet moved) go into the record
    // first; it is deleted only as read, so an entry pushed meanwhile keeps it, marked, until the
    // next start has relayed that one too.
    const outbox = account.outbox ?? []
    return copyEntries(db, outbox as ReadonlyArray<AuditEntryDocument>).pipe(
      Effect.andThen(
        queryWrite(() =>
          accounts.deleteOne(
            outbox.length === 0
              ? { _id: account._id, "outbox.0": { $exists: false } }
              : { _id: account._id, outbox }
          )
        )
      ),
      Effect.asVoid
    )
  }

  /** Copies the account to its memberships and clears its mark; an account left with none is deleted. */
  const settle = (accountId: string) =>
    Effect.gen(function* () {
      const account = yield* query(() => accounts.findOne({ _id: accountId }))
      if (account === null) return
      const held = yield* query(() => members.countDocuments({ accountId, ...notRemoved }, { limit: 1 }))
      if (held === 0) return yield* dropOrphan(account)
      yield* copied(accountId, Effect.succeed(account))
      yield* queryWrite(() => accounts.updateOne({ _id: accountId }, { $unset: { pendingSince: "" } }))
    })

  /**
   * Changes the account (`update`, its version moved on) with `entry` behind `copied`, after `before`
   * when given: the write to its memberships of a change that narrows; only while the account matches
   * `guard` (none: the account is answered as none). An account that reached no membership (the
   * last left meanwhile) is settled as any other, and deleted.
   */
  const change = (
    accountId: string,
    update: UpdateFilter<AccountDocument>,
    entry: AuditEntry | undefined,
    before: Effect.Effect<unknown, StoreUnavailable> = Effect.void,
    guard: Filter<AccountDocument> = {}
  ) =>
    copied(
      accountId,
      Effect.andThen(
        before,
        attemptWrite(() =>
          accounts.findOneAndUpdate(
            { ...guard, _id: accountId },
            { ...update, $inc: { ...update.$inc, version: 1 }, ...pushEntry(entry) },
            { returnDocument: "after" }
          )
        )
      )
    ).pipe(
      Effect.tap(({ account }) =>
        account === null ? Effect.void : noteLeft(db, "accounts", accountId, entry)
      ),
      Effect.tap(({ account, reached }) =>
        account !== null && reached === 0 ? settle(account._id) : Effect.void
      )
    )

  /** A change that widens what the account may do: made on the account with its entry, then copied. */
  const changeAccountFirst = (
    accountId: string,
    update: UpdateFilter<AccountDocument>,
    entry: AuditEntry | undefined,
    guard?: Filter<AccountDocument>
  ) => change(accountId, update, entry, Effect.void, guard)

  /**
   * A change that narrows (ends sessions, disables): it reaches the memberships first, so a process
   * stopped halfway never leaves a session alive that should have ended.
   */
  const changeMembershipsFirst = (
    accountId: string,
    memberships: UpdateFilter<MembershipDocument>,
    update: UpdateFilter<AccountDocument>,
    entry: AuditEntry | undefined
  ) =>
    change(
      accountId,
      update,
      entry,
      queryWrite(() => members.updateMany({ accountId }, memberships))
    )

  return {
    fences,
    conflictOf,
    settle,
    changeAccountFirst,
    changeMembershipsFirst,
    markPending: (ids: ReadonlyArray<string>) =>
      queryWrite(() =>
        accounts.updateMany({ _id: { $in: [...ids] } }, { $set: { pendingSince: new Date() } })
      )
  }
}

/** Finishes, at start, what stopped processes left pending: accounts older than a moment's work. */
export const settleAccounts = (db: Db) =>
  Effect.gen(function* () {
    const accounts = db.collection<AccountDocument>("accounts")
    const before = new Date(Date.now() - abandonedAfter.pendingAccountMs)
    const pending = yield* query(() =>
      accounts.find({ pendingSince: { $lt: before } }, { projection: { _id: 1 } }).toArray()
    )
    const { settle } = accountChanges(db)
    yield* Effect.forEach(pending, (account) => settle(account._id), { discard: true })
  })
