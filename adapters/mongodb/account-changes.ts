import { Effect } from "effect"
import type { Db, Filter, UpdateFilter } from "mongodb"
import { DuplicateEmail, DuplicateUsername } from "../../core/index.ts"
import { type AccountDocument, copiedFrom, type MembershipDocument } from "./account-documents.ts"
import { type AuditEntryDocument, live } from "./audit-document.ts"
import { attemptWrite, query, queryWrite } from "./driver.ts"
import { copyEntries } from "./relay-batches.ts"
import { sessionFences } from "./session-fences.ts"

/**
 * The writes that keep an account and its memberships in step. The account is the truth; its
 * memberships copy what lists filter on. A change that narrows (ends sessions, disables) reaches the
 * memberships first, so a process stopped halfway never leaves a session alive that should have
 * ended; one that widens reaches the account first, marked pending until its copies follow. Every
 * write to memberships goes behind a fence on the account's sessions, whose snapshots copy them.
 */
export const accountChanges = (db: Db) => {
  const accounts = db.collection<AccountDocument>("accounts")
  const members = db.collection<MembershipDocument>("members")
  const fences = sessionFences(db)
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

  const narrowMemberships = (accountId: string, update: UpdateFilter<MembershipDocument>) =>
    fences.ofAccount(accountId)(queryWrite(() => members.updateMany({ accountId }, update)))

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

  /** Copies the account to the memberships that hold it, behind a fence: how many it reached. */
  const copyToMemberships = (account: AccountDocument) =>
    fences
      .ofAccount(account._id)(
        queryWrite(() =>
          members.updateMany({ accountId: account._id, ...live }, { $set: copiedFrom(account) })
        )
      )
      .pipe(Effect.map((result) => result.matchedCount))

  const clearMark = (accountId: string) =>
    queryWrite(() => accounts.updateOne({ _id: accountId }, { $unset: { pendingSince: "" } }))

  /** Copies the account to its memberships and clears its mark; an account left with none is deleted. */
  const settle = (accountId: string) =>
    Effect.gen(function* () {
      const account = yield* query(() => accounts.findOne({ _id: accountId }))
      if (account === null) return
      const held = yield* query(() => members.countDocuments({ accountId, ...live }, { limit: 1 }))
      if (held === 0) return yield* dropOrphan(account)
      yield* copyToMemberships(account)
      yield* clearMark(accountId)
    })

  /**
   * `settle` for an account as its change left it, a member a moment ago: the copy counts its
   * memberships, so neither a read nor a count comes first. Should none hold it any more (the last
   * left meanwhile), it is settled as any other.
   */
  const settleChanged = (account: AccountDocument) =>
    Effect.gen(function* () {
      if ((yield* copyToMemberships(account)) === 0) return yield* settle(account._id)
      yield* clearMark(account._id)
    })

  /** Marks the account pending, applies `update` to it, then settles it (a member of the caller's organisation). */
  const widen = (filter: Filter<AccountDocument>, update: UpdateFilter<AccountDocument>) =>
    attemptWrite(() =>
      accounts.findOneAndUpdate(
        filter,
        { ...update, $set: { ...update.$set, pendingSince: new Date() } },
        { returnDocument: "after" }
      )
    ).pipe(Effect.tap((account) => (account === null ? Effect.void : settleChanged(account))))

  return {
    fences,
    conflictOf,
    narrowMemberships,
    settle,
    widen,
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
    const before = new Date(Date.now() - 30_000)
    const pending = yield* query(() =>
      accounts.find({ pendingSince: { $lt: before } }, { projection: { _id: 1 } }).toArray()
    )
    const { settle } = accountChanges(db)
    yield* Effect.forEach(pending, (account) => settle(account._id), { discard: true })
  })
