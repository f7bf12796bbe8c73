import { DateTime, Effect, Layer, Schema } from "effect"
import {
  DuplicateEmail,
  DuplicateUsername,
  loginKey,
  MemberId,
  MemberRecord,
  MemberStore,
  RoleId,
  usernameKey
} from "../../core/index.ts"
import { MongoDatabase } from "./database.ts"
import { attempt, decodeDocument, optionally, query } from "./driver.ts"

export interface MemberDocument {
  _id: string
  username: string
  /** The username's case-insensitive key, under a unique index. */
  usernameKey: string
  email: string
  passwordHash: string
  activestatus: boolean
  accountActiveStatus: boolean
  sessionEpoch: number
  roleId: number
  createdAt: Date
}

const MemberDocumentSchema = Schema.Struct({
  _id: MemberId,
  username: Schema.String,
  email: Schema.String,
  passwordHash: Schema.String,
  activestatus: Schema.Boolean,
  accountActiveStatus: Schema.Boolean,
  sessionEpoch: Schema.Int,
  roleId: RoleId,
  createdAt: Schema.DateTimeUtcFromDate
})

const decode = decodeDocument(MemberDocumentSchema)

const toRecord = (document: unknown) =>
  Effect.map(decode(document), ({ _id, ...fields }) => new MemberRecord({ id: _id, ...fields }))

const toDocument = (record: MemberRecord): MemberDocument => ({
  _id: record.id,
  username: record.username,
  usernameKey: usernameKey(record.username),
  email: record.email,
  passwordHash: record.passwordHash,
  activestatus: record.activestatus,
  accountActiveStatus: record.accountActiveStatus,
  sessionEpoch: record.sessionEpoch,
  roleId: record.roleId,
  createdAt: DateTime.toDateUtc(record.createdAt)
})

const optionalRecord = optionally(toRecord)

export const makeMemberStore = Effect.gen(function* () {
  const members = (yield* MongoDatabase).collection<MemberDocument>("members")
  return MemberStore.of({
    insert: (record) =>
      attempt(() => members.insertOne(toDocument(record))).pipe(
        Effect.asVoid,
        // The server need not say which index refused the write; which one holds the value does.
        Effect.catchTag("DuplicateKey", () =>
          query(() => members.countDocuments({ email: record.email }, { limit: 1 })).pipe(
            Effect.flatMap((taken) =>
              Effect.fail<DuplicateEmail | DuplicateUsername>(
                taken > 0
                  ? new DuplicateEmail({ email: record.email })
                  : new DuplicateUsername({ username: record.username })
              )
            )
          )
        )
      ),
    findById: (id) => query(() => members.findOne({ _id: id })).pipe(Effect.flatMap(optionalRecord)),
    findByLogin: (login) => {
      const key = loginKey(login)
      return query(() => members.findOne({ $or: [{ usernameKey: key }, { email: key }] })).pipe(
        Effect.flatMap(optionalRecord)
      )
    },
    list: query(() => members.find().sort({ createdAt: 1, _id: 1 }).toArray()).pipe(
      Effect.flatMap((documents) => Effect.forEach(documents, toRecord))
    ),
    setAccountStatus: (id, active) =>
      query(() =>
        members.findOneAndUpdate(
          { _id: id },
          active
            ? { $set: { accountActiveStatus: true } }
            : { $set: { accountActiveStatus: false }, $inc: { sessionEpoch: 1 } },
          { returnDocument: "after" }
        )
      ).pipe(Effect.flatMap(optionalRecord))
  })
})

export const memberStoreLayer = Layer.effect(MemberStore, makeMemberStore)
