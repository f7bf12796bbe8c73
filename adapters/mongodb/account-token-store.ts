import { Effect, Layer, Schema } from "effect"
import { AccountToken, AccountTokenStore } from "../../core/index.ts"
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
    expiresAt: Schema.DateTimeUtcFromDate
  }),
  AccountToken,
  {
    decode: ({ _id, ...fields }) => ({ ...fields, purpose: fields.purpose as AccountToken["purpose"] }),
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
    consume: (purpose, tokenHash) =>
      queryWrite(() => tokens.findOneAndDelete({ tokenHash, purpose })).pipe(
        Effect.flatMap(optionally(toToken))
      )
  })
})

export const accountTokenStoreLayer = Layer.effect(AccountTokenStore, makeAccountTokenStore)
