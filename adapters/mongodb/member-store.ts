import { Effect, Layer, Option } from "effect"
import type { UpdateFilter } from "mongodb"
import {
  AccountRecord,
  AlreadyMember,
  type AuditEntry,
  inOrganization,
  type MemberId,
  MemberRecord,
  MemberStore,
  RoleId
} from "../../core/index.ts"
import { accountWrites } from "./account-writes.ts"
import {
  type AccountDocument,
  accountChanges,
  auditedWrites,
  copiedFrom,
  type MembershipDocument,
  notNewerThan,
  notRemoved,
  roleHolders,
  toAccountDocument,
  toMembershipDocument
} from "./consistency/index.ts"
import { MongoDatabase } from "./database.ts"
import { attemptWrite, duplicateIsDefect, query, queryWrite } from "./driver.ts"
import { memberReads, membershipOf, optionalMember } from "./member-reads.ts"

export const makeMemberStore = Effect.gen(function* () {
  const db = yield* MongoDatabase
  const accounts = db.collection<AccountDocument>("accounts")
  const writes = auditedWrites<MembershipDocument>(db, "members")
  const members = writes.collection
  const { fences, conflictOf, settle, markPending } = accountChanges(db)
  const roles = roleHolders(db)
  const always = () => true

  const membership = membershipOf(db)

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
      )(duplicateIsDefect(writes.update({ accountId: id, roleId, organizationId }, update, entry)))
    ).pipe(Effect.flatMap(optionalMember))

  return MemberStore.of({
    insert: ({ passwordHash, ...member }, entry) =>
      roles.holding(
        member.roleId,
        Effect.gen(function* () {
          const account = toAccountDocument(new AccountRecord({ ...member, passwordHash }))
          const pendingSince = new Date()
          yield* attemptWrite(() => accounts.insertOne({ ...account, pendingSince })).pipe(
            Effect.catchTag("DuplicateKey", () => conflictOf(member.id, member))
          )
          const membership = toMembershipDocument(new MemberRecord(member))
          // The mark goes with the entry's relay, in its batch; without an entry, at once.
          yield* duplicateIsDefect(writes.insert(membership, entry, { accountId: member.id, pendingSince }))
          if (entry === undefined)
            yield* queryWrite(() => accounts.updateOne({ _id: member.id }, { $unset: { pendingSince: "" } }))
        }),
        always
      ),
    // The membership is stored with a fence up until its copies of the account are taken: a session
    // read in full meanwhile keeps no snapshot of copies that are about to change.
    join: (member, entry) =>
      roles.holding(
        member.roleId,
        fences.joining(
          member.id,
          member.organizationId
        )((fence) =>
          Effect.gen(function* () {
            if ((yield* query(() => accounts.countDocuments({ _id: member.id }, { limit: 1 }))) === 0)
              return false
            const document = { ...toMembershipDocument(member), fences: [fence] }
            yield* writes
              .insert(document, entry)
              .pipe(
                Effect.catchTag("DuplicateKey", () => Effect.fail(new AlreadyMember({ email: member.email })))
              )
            // Read after the write: an account removed or changed meanwhile is seen, and its copies taken.
            const account = yield* query(() => accounts.findOne({ _id: member.id }))
            if (account === null) {
              yield* queryWrite(() => members.deleteOne({ _id: document._id }))
              return false
            }
            yield* queryWrite(() =>
              members.updateOne(
                { _id: document._id, ...notNewerThan(account) },
                { $set: copiedFrom(account) }
              )
            )
            return true
          })
        ),
        (joined) => joined
      ),
    ...memberReads(db),
    ...accountWrites(db),
    update: (id, roleId, changes, endSessions, entry) => {
      // An update must change something; an empty one is a read.
      const update = {
        ...(Object.keys(changes).length > 0 ? { $set: changes } : {}),
        ...(endSessions ? { $inc: { membershipEpoch: 1 } } : {})
      }
      if (Object.keys(update).length === 0 && entry === undefined)
        return membership(id).pipe(Effect.map(Option.filter((member) => member.roleId === roleId)))
      if (changes.roleId === undefined || changes.roleId === roleId)
        return setAndAnswer(id, roleId, update, entry)
      return roles
        .holding(changes.roleId, setAndAnswer(id, roleId, update, entry), Option.isSome)
        .pipe(Effect.tap((moved) => (Option.isSome(moved) ? roles.release(roleId) : Effect.void)))
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
          const filter = { accountId: id, organizationId }
          const removed = yield* fences.ofMembership(
            id,
            organizationId
          )(
            entry === undefined
              ? queryWrite(() => members.findOneAndDelete({ ...filter, ...notRemoved }))
              : duplicateIsDefect(writes.remove(filter, entry))
          )
          yield* settle(id)
          if (removed !== null) yield* roles.release(RoleId.make(removed.roleId))
          return yield* optionalMember(removed)
        })
      )
  })
})

export const memberStoreLayer = Layer.effect(MemberStore, makeMemberStore)
