import { Effect, Layer, Option, Schema } from "effect"
import { AccountToken, AccountTokenStore, unknownSessionEpoch } from "../../core/index.ts"
import { MongoDatabase } from "./database.ts"
import { attemptWrite, query, queryWrite } from "./driver.ts"
import { collectionSchema, decodeDocument, encodeDocument, optionally } from "./stored-schema.ts"

/**
 * A one-time token as stored: one document per account and purpose (its `_id`), so that a new token
 * replaces the old in one write; found by its digest, unique too.
 */
const AccountTokenDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.String,
    tokenHash: Schema.String,
    purpose: Schema.String,
    accountId: Schema.String,
    organizationId: Schema.String,
    email: Schema.String,
    createdAt: Schema.DateTimeUtcFromDate,
    expiresAt: Schema.DateTimeUtcFromDate,
    /** Absent on tokens stored before challenges had tries: a mailed link, used once. */
    triesLeft: Schema.optionalKey(Schema.Int),
    /** Absent on tokens stored before they carried one: worth nothing (`unknownSessionEpoch`). */
    sessionEpoch: Schema.optionalKey(Schema.Int)
  }),
  AccountToken,
  {
    decode: ({ _id, triesLeft, sessionEpoch, ...fields }) => ({
      ...fields,
      purpose: fields.purpose as AccountToken["purpose"],
      triesLeft: triesLeft ?? 1,
      sessionEpoch: sessionEpoch ?? unknownSessionEpoch
    }),
    encode: (token) => ({ _id: `${token.accountId}/${token.purpose}`, ...token })
  }
)
type AccountTokenDocument = typeof AccountTokenDocument.Encoded

const toToken = decodeDocument(AccountTokenDocument)
const toDocument = encodeDocument(AccountTokenDocument)

export const makeAccountTokenStore = Effect.gen(function* () {
  const tokens = (yield* MongoDatabase).collection<AccountTokenDocument>("account_tokens")
  const replace = (document: AccountTokenDocument) =>
    attemptWrite(() => tokens.replaceOne({ _id: document._id }, document, { upsert: true }))
  return AccountTokenStore.of({
    issue: (token) => {
      const document = toDocument(token)
      // Two upserts of one account at once: the one that lost the insert replaces the winner's.
      return replace(document).pipe(
        Effect.catchTag("DuplicateKey", () => replace(document)),
        Effect.catchTag("DuplicateKey", (error) => Effect.die(error)),
        Effect.asVoid
      )
    },
    find: (purpose, tokenHash) =>
      query(() => tokens.findOne({ tokenHash, purpose })).pipe(Effect.flatMap(optionally(toToken))),
    spendTry: (purpose, tokenHash) =>
      queryWrite(() =>
        tokens.findOneAndUpdate(
          { tokenHash, purpose },
          { $inc: { triesLeft: -1 } },
          { returnDocument: "after" }
        )
      ).pipe(
        Effect.flatMap((document) => {
          if (document === null) return Effect.succeedNone
          const left = document.triesLeft ?? 0
          const spent =
            left <= 0 ? queryWrite(() => tokens.deleteOne({ _id: document._id, tokenHash })) : Effect.void
          return Effect.as(spent, Option.some(Math.max(left, 0)))
        })
      ),
    consume: (purpose, tokenHash) =>
      queryWrite(() => tokens.findOneAndDelete({ tokenHash, purpose })).pipe(
        Effect.flatMap(optionally(toToken))
      )
  })
})

export const accountTokenStoreLayer = Layer.effect(AccountTokenStore, makeAccountTokenStore)
