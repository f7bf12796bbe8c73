import { Effect, Layer, Schema } from "effect"
import { MemberId, MfaRecord, MfaStore, SealedSecret, TokenHash } from "../../core/index.ts"
import { appendEntry } from "./audit-log.ts"
import type { Row } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { int, jsonColumn, optionalRow, optionalText, rowChecked, text } from "./values.ts"

const { encode: encodeCodes, decode: decodeCodes } = jsonColumn(Schema.Array(TokenHash))

const sealedOf = (stored: Row[string] | undefined) => {
  const value = optionalText(stored)
  return value === null ? null : SealedSecret.make(value)
}

const toRecord = (row: Row) =>
  new MfaRecord(
    {
      accountId: MemberId.make(text(row.account_id)),
      secret: sealedOf(row.secret),
      pending: sealedOf(row.pending),
      lastStep: int(row.last_step),
      recoveryCodes: decodeCodes(row.recovery_codes)
    },
    rowChecked
  )

export const makeMfaStore = Effect.gen(function* () {
  const { read, write } = yield* SqliteDatabase
  return MfaStore.of({
    find: (accountId) =>
      read((db) =>
        optionalRow(db.get("SELECT * FROM account_mfa WHERE account_id = ?", accountId), toRecord)
      ),
    enrol: (accountId, pending) =>
      write(
        (db) =>
          void db.run(
            `INSERT INTO account_mfa (account_id, secret, pending, last_step, recovery_codes) VALUES (?, NULL, ?, 0, '[]')
             ON CONFLICT (account_id) DO UPDATE SET pending = excluded.pending`,
            accountId,
            pending
          )
      ),
    confirm: (accountId, pending, step, recoveryCodes, entry) =>
      write((db) => {
        const done =
          db.run(
            `UPDATE account_mfa SET secret = pending, pending = NULL, last_step = ?, recovery_codes = ?
             WHERE account_id = ? AND pending = ?`,
            step,
            encodeCodes(recoveryCodes),
            accountId,
            pending
          ).changes > 0
        if (done) appendEntry(db, entry)
        return done
      }),
    takeStep: (accountId, step) =>
      write(
        (db) =>
          db.run(
            "UPDATE account_mfa SET last_step = ? WHERE account_id = ? AND secret IS NOT NULL AND last_step < ?",
            step,
            accountId,
            step
          ).changes > 0
      ),
    useRecoveryCode: (accountId, digest, entry) =>
      write((db) => {
        const row = db.get("SELECT * FROM account_mfa WHERE account_id = ? AND secret IS NOT NULL", accountId)
        if (row === undefined) return false
        const codes = decodeCodes(row.recovery_codes)
        if (!codes.includes(digest)) return false
        db.run(
          "UPDATE account_mfa SET recovery_codes = ? WHERE account_id = ?",
          encodeCodes(codes.filter((code) => code !== digest)),
          accountId
        )
        appendEntry(db, entry)
        return true
      }),
    replaceRecoveryCodes: (accountId, recoveryCodes, entry) =>
      write((db) => {
        const done =
          db.run(
            "UPDATE account_mfa SET recovery_codes = ? WHERE account_id = ? AND secret IS NOT NULL",
            encodeCodes(recoveryCodes),
            accountId
          ).changes > 0
        if (done) appendEntry(db, entry)
        return done
      }),
    remove: (accountId, entry) =>
      write((db) => {
        const done = db.run("DELETE FROM account_mfa WHERE account_id = ?", accountId).changes > 0
        if (done) appendEntry(db, entry)
        return done
      })
  })
})

export const mfaStoreLayer = Layer.effect(MfaStore, makeMfaStore)
