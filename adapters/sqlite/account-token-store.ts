import { Effect, Layer, Option } from "effect"
import {
  AccountToken,
  AccountTokenPurpose,
  AccountTokenStore,
  MemberId,
  OrganizationId,
  TokenHash
} from "../../core/index.ts"
import type { Row } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { instantOf, int, millis, optionalRow, rowChecked, text } from "./values.ts"

const purposeOf = (stored: string): AccountTokenPurpose => {
  const purpose = AccountTokenPurpose.literals.find((known) => known === stored)
  if (purpose === undefined) throw new Error(`An account token of an unknown purpose: ${stored}`)
  return purpose
}

const toToken = (row: Row) =>
  new AccountToken(
    {
      tokenHash: TokenHash.make(text(row.token_hash)),
      purpose: purposeOf(text(row.purpose)),
      accountId: MemberId.make(text(row.account_id)),
      organizationId: OrganizationId.make(text(row.organization_id)),
      email: text(row.email),
      createdAt: instantOf(row.created_at),
      expiresAt: instantOf(row.expires_at),
      triesLeft: int(row.tries_left),
      sessionEpoch: int(row.session_epoch)
    },
    rowChecked
  )

export const makeAccountTokenStore = Effect.gen(function* () {
  const { read, write } = yield* SqliteDatabase
  return AccountTokenStore.of({
    issue: (token) =>
      write((db) => {
        db.run("DELETE FROM account_tokens WHERE expires_at <= ?", millis(token.createdAt))
        db.run(
          `INSERT INTO account_tokens (token_hash, purpose, account_id, organization_id, email, created_at, expires_at, tries_left, session_epoch)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (account_id, purpose) DO UPDATE SET token_hash = excluded.token_hash,
             organization_id = excluded.organization_id, email = excluded.email,
             created_at = excluded.created_at, expires_at = excluded.expires_at, tries_left = excluded.tries_left,
             session_epoch = excluded.session_epoch`,
          token.tokenHash,
          token.purpose,
          token.accountId,
          token.organizationId,
          token.email,
          millis(token.createdAt),
          millis(token.expiresAt),
          token.triesLeft,
          token.sessionEpoch
        )
      }),
    find: (purpose, tokenHash) =>
      read((db) =>
        optionalRow(
          db.get("SELECT * FROM account_tokens WHERE token_hash = ? AND purpose = ?", tokenHash, purpose),
          toToken
        )
      ),
    spendTry: (purpose, tokenHash) =>
      write((db) => {
        const row = db.get(
          "UPDATE account_tokens SET tries_left = tries_left - 1 WHERE token_hash = ? AND purpose = ? RETURNING tries_left",
          tokenHash,
          purpose
        )
        if (row === undefined) return Option.none<number>()
        const left = int(row.tries_left)
        if (left <= 0) db.run("DELETE FROM account_tokens WHERE token_hash = ?", tokenHash)
        return Option.some(Math.max(left, 0))
      }),
    consume: (purpose, tokenHash) =>
      write((db) =>
        optionalRow(
          db.get(
            "DELETE FROM account_tokens WHERE token_hash = ? AND purpose = ? RETURNING *",
            tokenHash,
            purpose
          ),
          toToken
        )
      )
  })
})

export const accountTokenStoreLayer = Layer.effect(AccountTokenStore, makeAccountTokenStore)
