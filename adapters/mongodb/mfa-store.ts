import { Effect, Layer, Schema } from "effect"
import type { UpdateFilter } from "mongodb"
import { type AuditEntry, type MemberId, MfaRecord, MfaStore } from "../../core/index.ts"
import { type AccountDocument, auditedWrites } from "./consistency/index.ts"
import { MongoDatabase } from "./database.ts"
import { duplicateIsDefect, query } from "./driver.ts"
import { decodeDocument } from "./stored-schema.ts"

/**
 * An account's second factor as stored: a part of its account's document, so that a change of it
 * and its audit entry are one write, and the entry waits where an account's entries wait.
 */
const MfaPart = Schema.Struct({
  secret: Schema.NullOr(Schema.String),
  pending: Schema.NullOr(Schema.String),
  lastStep: Schema.Int,
  recoveryCodes: Schema.Array(Schema.String)
})
type MfaPart = typeof MfaPart.Type
type WithMfa = AccountDocument & { readonly mfa?: MfaPart }

const toRecord = decodeDocument(MfaRecord)
const toPart = decodeDocument(MfaPart)

/** Whether the account's TOTP is on. */
const on = { "mfa.secret": { $nin: [null] }, mfa: { $exists: true } }

export const makeMfaStore = Effect.gen(function* () {
  const writes = auditedWrites<WithMfa>(yield* MongoDatabase, "accounts")
  const accounts = writes.collection
  /** Applies `update` to the account where `filter` holds, with `entry`; answers whether it did. */
  const change = (accountId: MemberId, filter: object, update: UpdateFilter<WithMfa>, entry?: AuditEntry) =>
    duplicateIsDefect(writes.update({ _id: accountId, ...filter }, update, entry)).pipe(
      Effect.map((written) => written !== null)
    )
  const startPart = (accountId: MemberId, pending: string) =>
    change(
      accountId,
      { mfa: { $exists: false } },
      {
        $set: { mfa: { secret: null, pending, lastStep: 0, recoveryCodes: [] } }
      }
    )
  return MfaStore.of({
    find: (accountId) =>
      query(() => accounts.findOne({ _id: accountId }, { projection: { mfa: 1 } })).pipe(
        Effect.flatMap((document) =>
          document?.mfa === undefined
            ? Effect.succeedNone
            : Effect.flatMap(toPart(document.mfa), (part) => Effect.asSome(toRecord({ accountId, ...part })))
        )
      ),
    enrol: (accountId, pending) =>
      change(accountId, { mfa: { $exists: true } }, { $set: { "mfa.pending": pending } }).pipe(
        // None yet: the part is made; should another enrolment have made it meanwhile, it is set.
        Effect.flatMap((set) => (set ? Effect.succeed(true) : startPart(accountId, pending))),
        Effect.flatMap((set) =>
          set
            ? Effect.void
            : Effect.asVoid(
                change(accountId, { mfa: { $exists: true } }, { $set: { "mfa.pending": pending } })
              )
        )
      ),
    confirm: (accountId, pending, step, recoveryCodes, entry) =>
      change(
        accountId,
        { "mfa.pending": pending },
        {
          $set: {
            "mfa.secret": pending,
            "mfa.pending": null,
            "mfa.lastStep": step,
            "mfa.recoveryCodes": [...recoveryCodes]
          }
        },
        entry
      ),
    takeStep: (accountId, step) =>
      change(accountId, { ...on, "mfa.lastStep": { $lt: step } }, { $set: { "mfa.lastStep": step } }),
    useRecoveryCode: (accountId, digest, entry) =>
      change(
        accountId,
        { ...on, "mfa.recoveryCodes": digest },
        { $pull: { "mfa.recoveryCodes": digest } },
        entry
      ),
    replaceRecoveryCodes: (accountId, recoveryCodes, entry) =>
      change(accountId, on, { $set: { "mfa.recoveryCodes": [...recoveryCodes] } }, entry),
    remove: (accountId, entry) =>
      change(accountId, { mfa: { $exists: true } }, { $unset: { mfa: "" } }, entry)
  })
})

export const mfaStoreLayer = Layer.effect(MfaStore, makeMfaStore)
