import { Effect, Layer, Schema } from "effect"
import type { Filter, UpdateFilter } from "mongodb"
import {
  DuplicateEmail,
  DuplicateUsername,
  loginKey,
  MemberRecord,
  MemberStore,
  usernameKey
} from "../../core/index.ts"
import { inOrganization } from "../organization-scope.ts"
import { live, Outbox, pushEntry, Removed, withEntry } from "./audit-document.ts"
import { MongoDatabase } from "./database.ts"
import {
  attemptWrite,
  collectionSchema,
  decodeDocument,
  encodeDocument,
  optionally,
  query,
  queryWrite
} from "./driver.ts"
import { memberFilter } from "./member-filter.ts"

/**
 * A member as stored: the id as `_id`, the username's case-insensitive key under a unique index, and
 * the audit entries of its changes until they are relayed (`relay.ts`).
 */
const MemberDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.String,
    organizationId: Schema.String,
    username: Schema.String,
    usernameKey: Schema.String,
    email: Schema.String,
    passwordHash: Schema.String,
    activestatus: Schema.Boolean,
    accountActiveStatus: Schema.Boolean,
    sessionEpoch: Schema.Int,
    roleId: Schema.Int,
    createdAt: Schema.DateTimeUtcFromDate,
    outbox: Outbox,
    removed: Removed
  }),
  MemberRecord,
  {
    decode: ({ _id, usernameKey: _key, outbox: _outbox, removed: _removed, ...fields }) => ({
      id: _id,
      ...fields
    }),
    encode: ({ id, ...fields }) => ({ _id: id, usernameKey: usernameKey(fields.username), ...fields })
  }
)

type MemberDocument = typeof MemberDocument.Encoded

const toRecord = decodeDocument(MemberDocument)
const toDocument = encodeDocument(MemberDocument)

const optionalRecord = optionally(toRecord)

export const makeMemberStore = Effect.gen(function* () {
  const members = (yield* MongoDatabase).collection<MemberDocument>("members")

  /**
   * The server need not say which unique index refused a write; which value another member already
   * holds does.
   */
  const conflictOf = (id: string, fields: { readonly email?: string; readonly username?: string }) =>
    query(() =>
      fields.email === undefined
        ? Promise.resolve(0)
        : members.countDocuments({ email: fields.email, _id: { $ne: id } }, { limit: 1 })
    ).pipe(
      Effect.flatMap((emailTaken) =>
        Effect.fail<DuplicateEmail | DuplicateUsername>(
          emailTaken > 0
            ? new DuplicateEmail({ email: fields.email ?? "" })
            : new DuplicateUsername({ username: fields.username ?? "" })
        )
      )
    )

  const setAndAnswer = (filter: Filter<MemberDocument>, update: UpdateFilter<MemberDocument>) =>
    inOrganization((organizationId) =>
      attemptWrite(() =>
        members.findOneAndUpdate({ ...filter, organizationId, ...live }, update, { returnDocument: "after" })
      )
    ).pipe(Effect.flatMap(optionalRecord))

  return MemberStore.of({
    insert: (record, entry) =>
      attemptWrite(() => members.insertOne(withEntry(toDocument(record), entry))).pipe(
        Effect.asVoid,
        Effect.catchTag("DuplicateKey", () => conflictOf(record.id, record))
      ),
    findById: (id) =>
      inOrganization((organizationId) =>
        query(() => members.findOne({ _id: id, organizationId, ...live }))
      ).pipe(Effect.flatMap(optionalRecord)),
    findByLogin: (login) => {
      const key = loginKey(login)
      return query(() => members.findOne({ $or: [{ usernameKey: key }, { email: key }], ...live })).pipe(
        Effect.flatMap(optionalRecord)
      )
    },
    page: (memberQuery, limit) =>
      inOrganization((organizationId) =>
        query(() =>
          members
            .find({ organizationId, ...memberFilter(memberQuery), ...live })
            .sort({ organizationId: 1, createdAt: 1, _id: 1 })
            .limit(limit)
            .toArray()
        )
      ).pipe(Effect.flatMap((documents) => Effect.forEach(documents, toRecord))),
    countActive: inOrganization((organizationId) =>
      query(() => members.countDocuments({ organizationId, ...memberFilter({ active: true }), ...live }))
    ),
    setAccountStatus: (id, active, entry) =>
      setAndAnswer(
        { _id: id },
        active
          ? { $set: { accountActiveStatus: true }, ...pushEntry(entry) }
          : { $set: { accountActiveStatus: false }, $inc: { sessionEpoch: 1 }, ...pushEntry(entry) }
      ).pipe(Effect.catchTag("DuplicateKey", (error) => Effect.die(error))),
    update: (id, roleId, changes, endSessions, entry) => {
      const set = {
        ...changes,
        ...(changes.username === undefined ? {} : { usernameKey: usernameKey(changes.username) })
      }
      // An update must change something; an empty one is a read.
      const update = {
        ...(Object.keys(set).length > 0 ? { $set: set } : {}),
        ...(endSessions ? { $inc: { sessionEpoch: 1 } } : {}),
        ...pushEntry(entry)
      }
      const filter = { _id: id, roleId }
      return (
        Object.keys(update).length === 0
          ? inOrganization((organizationId) =>
              query(() => members.findOne({ ...filter, organizationId, ...live }))
            ).pipe(Effect.flatMap(optionalRecord))
          : setAndAnswer(filter, update)
      ).pipe(Effect.catchTag("DuplicateKey", () => conflictOf(id, changes)))
    },
    setPassword: (id, passwordHash, entry) =>
      setAndAnswer(
        { _id: id },
        { $set: { passwordHash }, $inc: { sessionEpoch: 1 }, ...pushEntry(entry) }
      ).pipe(Effect.catchTag("DuplicateKey", (error) => Effect.die(error))),
    removeAll: inOrganization((organizationId) =>
      queryWrite(() => members.deleteMany({ organizationId }))
    ).pipe(Effect.asVoid),
    // With an entry, the member is only marked removed: the relay deletes it once the entry is moved.
    remove: (id, entry) =>
      inOrganization((organizationId) =>
        entry === undefined
          ? queryWrite(() => members.findOneAndDelete({ _id: id, organizationId, ...live }))
          : queryWrite(() =>
              members.findOneAndUpdate(
                { _id: id, organizationId, ...live },
                { $set: { removed: true }, ...pushEntry(entry) },
                { returnDocument: "before" }
              )
            )
      ).pipe(Effect.flatMap(optionalRecord))
  })
})

export const memberStoreLayer = Layer.effect(MemberStore, makeMemberStore)
