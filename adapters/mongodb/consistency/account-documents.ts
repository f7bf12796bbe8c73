import { Schema } from "effect"
import { AccountRecord, MemberRecord, usernameKey } from "../../../core/index.ts"
import { collectionSchema, decodeDocument, encodeDocument } from "../stored-schema.ts"
import { Outbox, Removed } from "./audit-document.ts"

/**
 * An account as stored: the truth of its username, e-mail, status and credential, under the unique
 * indexes. `version` moves on with every change of it, and its memberships' copies say which one
 * they copy (see `notNewerThan`). `pendingSince` marks an account whose memberships may not hold
 * it yet (a new account, or a removal was under way): `settleAccounts` finishes it at start if a
 * process stopped.
 */
export const AccountDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.String,
    username: Schema.String,
    usernameKey: Schema.String,
    email: Schema.String,
    /** Absent on accounts stored before verification existed: not verified. */
    emailVerified: Schema.optionalKey(Schema.Boolean),
    passwordHash: Schema.String,
    accountActiveStatus: Schema.Boolean,
    createdAt: Schema.DateTimeUtcFromDate,
    version: Schema.optionalKey(Schema.Int),
    pendingSince: Schema.optionalKey(Schema.Date),
    outbox: Outbox
  }),
  AccountRecord,
  {
    decode: ({
      _id,
      usernameKey: _key,
      version: _version,
      pendingSince: _pending,
      outbox: _outbox,
      emailVerified,
      ...fields
    }) => ({
      id: _id,
      emailVerified: emailVerified ?? false,
      ...fields
    }),
    encode: ({ id, ...fields }) => ({ _id: id, usernameKey: usernameKey(fields.username), ...fields })
  }
)
export type AccountDocument = typeof AccountDocument.Encoded

export const toAccount = decodeDocument(AccountDocument)
export const toAccountDocument = encodeDocument(AccountDocument)

/**
 * A membership as stored, with copies of its account's fields that lists filter on (kept in step by
 * every account change) and the two halves of its session epoch: the account's and its own.
 */
export const MembershipDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.String,
    accountId: Schema.String,
    organizationId: Schema.String,
    username: Schema.String,
    usernameKey: Schema.String,
    email: Schema.String,
    emailVerified: Schema.optionalKey(Schema.Boolean),
    accountActiveStatus: Schema.Boolean,
    accountVersion: Schema.optionalKey(Schema.Int),
    accountEpoch: Schema.Int,
    membershipEpoch: Schema.Int,
    activestatus: Schema.Boolean,
    roleId: Schema.Int,
    createdAt: Schema.DateTimeUtcFromDate,
    outbox: Outbox,
    removed: Removed
  }),
  MemberRecord,
  {
    decode: ({ accountId, accountEpoch, membershipEpoch, ...document }) => ({
      id: accountId,
      organizationId: document.organizationId,
      username: document.username,
      email: document.email,
      emailVerified: document.emailVerified ?? false,
      accountActiveStatus: document.accountActiveStatus,
      activestatus: document.activestatus,
      roleId: document.roleId,
      createdAt: document.createdAt,
      sessionEpoch: accountEpoch + membershipEpoch
    }),
    encode: ({ id, sessionEpoch, ...fields }) => ({
      _id: `${fields.organizationId}/${id}`,
      accountId: id,
      usernameKey: usernameKey(fields.username),
      accountEpoch: 0,
      membershipEpoch: sessionEpoch,
      ...fields
    })
  }
)
export type MembershipDocument = typeof MembershipDocument.Encoded

export const toMembership = decodeDocument(MembershipDocument)
export const toMembershipDocument = encodeDocument(MembershipDocument)

/** The fields a membership copies from its account, and the version of the account they are. */
export const copiedFrom = (account: AccountDocument) => ({
  username: account.username,
  usernameKey: account.usernameKey,
  email: account.email,
  emailVerified: account.emailVerified ?? false,
  accountActiveStatus: account.accountActiveStatus,
  accountVersion: account.version ?? 0
})

/**
 * The memberships that may take the account's copy: none has copied a later version of it. Two
 * changes of one account may end in either order; the copy of the earlier never overwrites the
 * later's. A version copied again is the same account, so it may be (a stopped write's is redone).
 */
export const notNewerThan = (account: AccountDocument) => ({
  $or: [{ accountVersion: { $lte: account.version ?? 0 } }, { accountVersion: { $exists: false } }]
})
