import { Effect, Layer, Option } from "effect"
import type { UpdateFilter } from "mongodb"
import {
  AccountRecord,
  AlreadyMember,
  type AuditEntry,
  loginKey,
  type MemberId,
  MemberRecord,
  MemberStore,
  usernameKey
} from "../../core/index.ts"
import { inOrganization } from "../organization-scope.ts"
import { optionally } from "../stored-schema.ts"
import { accountChanges } from "./account-changes.ts"
import {
  type AccountDocument,
  copiedFrom,
  type MembershipDocument,
  toAccount,
  toAccountDocument,
  toMembership,
  toMembershipDocument
} from "./account-documents.ts"
import { live, pushEntry, withEntry } from "./audit-document.ts"
import { MongoDatabase } from "./database.ts"
import { attemptWrite, query, queryWrite } from "./driver.ts"
import { memberFilter } from "./member-filter.ts"
import { noteLeft } from "./relay-hints.ts"

const optionalMember = optionally(toMembership)
const optionalAccount = optionally(toAccount)

export const makeMemberStore = Effect.gen(function* () {
  const db = yield* MongoDatabase
  const accounts = db.collection<AccountDocument>("accounts")
  const members = db.collection<MembershipDocument>("members")
  const { fences, conflictOf, narrowMemberships, settle, widen, markPending } = accountChanges(db)

  const membership = (id: MemberId) =>
    inOrganization((organizationId) =>
      query(() => members.findOne({ accountId: id, organizationId, ...live }))
    ).pipe(Effect.flatMap(optionalMember))

  /** An account-wide change of a member of the current organisation; none when there is none. */
  const changeAccount = <E>(id: MemberId, change: Effect.Effect<unknown, E>) =>
    membership(id).pipe(
      Effect.flatMap((found) =>
        Option.isNone(found) ? Effect.succeedNone : Effect.andThen(change, membership(id))
      )
    )

  const setAndAnswer = (
    id: MemberId,
    roleId: number,
    update: UpdateFilter<MembershipDocument>,
    entry: AuditEntry | undefined
  ) =>
    inOrganization((organizationId) =>
      fences.ofMembership(
        id,
        organizationId
      )(
        queryWrite(() =>
          members.findOneAndUpdate({ accountId: id, roleId, organizationId, ...live }, update, {
            returnDocument: "after"
          })
        )
      )
    ).pipe(
      Effect.tap((updated) => (updated === null ? Effect.void : noteLeft(db, "members", updated._id, entry))),
      Effect.flatMap(optionalMember)
    )

  return MemberStore.of({
    insert: ({ passwordHash, ...member }, entry) =>
      Effect.gen(function* () {
        const account = toAccountDocument(new AccountRecord({ ...member, passwordHash }))
        yield* attemptWrite(() => accounts.insertOne({ ...account, pendingSince: new Date() })).pipe(
          Effect.catchTag("DuplicateKey", () => conflictOf(member.id, member))
        )
        const membership = toMembershipDocument(new MemberRecord(member))
        yield* queryWrite(() => members.insertOne(withEntry(membership, entry)))
        yield* noteLeft(db, "members", membership._id, entry)
        yield* queryWrite(() => accounts.updateOne({ _id: member.id }, { $unset: { pendingSince: "" } }))
      }),
    // The membership is stored with a fence up until its copies of the account are taken: a session
    // read in full meanwhile keeps no snapshot of copies that are about to change.
    join: (member, entry) =>
      fences.joining(
        member.id,
        member.organizationId
      )((fence) =>
        Effect.gen(function* () {
          if ((yield* query(() => accounts.countDocuments({ _id: member.id }, { limit: 1 }))) === 0)
            return false
          const document = { ...withEntry(toMembershipDocument(member), entry), fences: [fence] }
          yield* attemptWrite(() => members.insertOne(document)).pipe(
            Effect.catchTag("DuplicateKey", () => Effect.fail(new AlreadyMember({ email: member.email })))
          )
          // Read after the write: an account removed or changed meanwhile is seen, and its copies taken.
          const account = yield* query(() => accounts.findOne({ _id: member.id }))
          if (account === null) {
            yield* queryWrite(() => members.deleteOne({ _id: document._id }))
            return false
          }
          yield* queryWrite(() => members.updateOne({ _id: document._id }, { $set: copiedFrom(account) }))
          return true
        })
      ),
    findById: membership,
    findAccount: (id) => query(() => accounts.findOne({ _id: id })).pipe(Effect.flatMap(optionalAccount)),
    findByLogin: (login) => {
      const key = loginKey(login)
      return query(() => accounts.findOne({ $or: [{ usernameKey: key }, { email: key }] })).pipe(
        Effect.flatMap(optionalAccount)
      )
    },
    membershipsOf: (id) =>
      query(() =>
        members
          .find({ accountId: id, ...live })
          .sort({ accountId: 1, createdAt: 1, organizationId: 1 })
          .toArray()
      ).pipe(
        Effect.flatMap((documents) => Effect.forEach(documents, toMembership)),
        Effect.map((found) =>
          found.map(({ organizationId, roleId, activestatus, createdAt }) => ({
            organizationId,
            roleId,
            activestatus,
            createdAt
          }))
        )
      ),
    page: (memberQuery, limit) =>
      inOrganization((organizationId) =>
        query(() =>
          members
            .find({ organizationId, ...memberFilter(memberQuery), ...live })
            .sort({ organizationId: 1, createdAt: 1, accountId: 1 })
            .limit(limit)
            .toArray()
        )
      ).pipe(Effect.flatMap((documents) => Effect.forEach(documents, toMembership))),
    countActive: inOrganization((organizationId) =>
      query(() => members.countDocuments({ organizationId, ...memberFilter({ active: true }), ...live }))
    ),
    setAccountStatus: (id, active, entry) =>
      changeAccount(
        id,
        active
          ? widen({ _id: id }, { $set: { accountActiveStatus: true }, ...pushEntry(entry) })
          : narrowMemberships(id, { $set: { accountActiveStatus: false }, $inc: { accountEpoch: 1 } }).pipe(
              Effect.andThen(
                queryWrite(() =>
                  accounts.updateOne(
                    { _id: id },
                    { $set: { accountActiveStatus: false }, ...pushEntry(entry) }
                  )
                )
              )
            )
      ).pipe(Effect.catchTag("DuplicateKey", (error) => Effect.die(error))),
    setPassword: (id, passwordHash, entry) =>
      changeAccount(
        id,
        narrowMemberships(id, { $inc: { accountEpoch: 1 } }).pipe(
          Effect.andThen(
            queryWrite(() => accounts.updateOne({ _id: id }, { $set: { passwordHash }, ...pushEntry(entry) }))
          )
        )
      ),
    updateAccount: (id, changes, entry) => {
      const set = {
        ...changes,
        ...(changes.username === undefined ? {} : { usernameKey: usernameKey(changes.username) })
      }
      return changeAccount(
        id,
        widen({ _id: id }, { $set: set, ...pushEntry(entry) }).pipe(
          Effect.tap((account) => (account === null ? Effect.void : noteLeft(db, "accounts", id, entry))),
          Effect.catchTag("DuplicateKey", () => conflictOf(id, changes))
        )
      )
    },
    update: (id, roleId, changes, endSessions, entry) => {
      // An update must change something; an empty one is a read.
      const update = {
        ...(Object.keys(changes).length > 0 ? { $set: changes } : {}),
        ...(endSessions ? { $inc: { membershipEpoch: 1 } } : {}),
        ...pushEntry(entry)
      }
      return Object.keys(update).length === 0
        ? membership(id).pipe(Effect.map(Option.filter((member) => member.roleId === roleId)))
        : setAndAnswer(id, roleId, update, entry)
    },
    removeAll: inOrganization((organizationId) =>
      Effect.gen(function* () {
        const held = yield* query(() =>
          members.find({ organizationId }, { projection: { accountId: 1 } }).toArray()
        )
        const ids = held.map((document) => document.accountId)
        yield* markPending(ids)
        yield* fences.ofOrganization(organizationId)(queryWrite(() => members.deleteMany({ organizationId })))
        yield* Effect.forEach(ids, settle, { discard: true })
      })
    ),
    // With an entry, the membership is only marked removed: the relay deletes it once the entry is moved.
    remove: (id, entry) =>
      inOrganization((organizationId) =>
        Effect.gen(function* () {
          yield* markPending([id])
          const filter = { accountId: id, organizationId, ...live }
          const removed = yield* fences.ofMembership(
            id,
            organizationId
          )(
            entry === undefined
              ? queryWrite(() => members.findOneAndDelete(filter))
              : queryWrite(() =>
                  members.findOneAndUpdate(
                    filter,
                    { $set: { removed: true }, ...pushEntry(entry) },
                    { returnDocument: "before" }
                  )
                )
          )
          yield* settle(id)
          return yield* optionalMember(removed)
        })
      )
  })
})

export const memberStoreLayer = Layer.effect(MemberStore, makeMemberStore)
