import { Effect, Layer, Schema } from "effect"
import {
  DuplicateEmail,
  DuplicateUsername,
  loginKey,
  MemberRecord,
  MemberStore,
  usernameKey
} from "../../core/index.ts"
import { MongoDatabase } from "./database.ts"
import { attempt, collectionSchema, decodeDocument, encodeDocument, optionally, query } from "./driver.ts"

/** A member as stored: the id as `_id`, and the username's case-insensitive key under a unique index. */
const MemberDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.String,
    username: Schema.String,
    usernameKey: Schema.String,
    email: Schema.String,
    passwordHash: Schema.String,
    activestatus: Schema.Boolean,
    accountActiveStatus: Schema.Boolean,
    sessionEpoch: Schema.Int,
    roleId: Schema.Int,
    createdAt: Schema.DateTimeUtcFromDate
  }),
  MemberRecord,
  {
    decode: ({ _id, usernameKey: _key, ...fields }) => ({ id: _id, ...fields }),
    encode: ({ id, ...fields }) => ({ _id: id, usernameKey: usernameKey(fields.username), ...fields })
  }
)

type MemberDocument = typeof MemberDocument.Encoded

const toRecord = decodeDocument(MemberDocument)
const toDocument = encodeDocument(MemberDocument)

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
