import { Effect, Layer } from "effect"
import { AccountToken, AccountTokenStore, MemberId, OrganizationId, TokenHash } from "../../core/index.ts"
import type { Row } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { instantOf, millis, optionalRow, rowChecked, text } from "./values.ts"

const toToken = (row: Row) =>
  new AccountToken(
    {
      tokenHash: TokenHash.make(text(row.token_hash)),
      purpose: text(row.purpose) === "password_reset" ? "password_reset" : "email_verification",
      accountId: MemberId.make(text(row.account_id)),
      organizationId: OrganizationId.make(text(row.organization_id)),
      email: text(row.email),
      createdAt: instantOf(row.created_at),
      expiresAt: instantOf(row.expires_at)
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
          `INSERT INTO account_tokens (token_hash, purpose, account_id, organization_id, email, created_at, expires_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (account_id, purpose) DO UPDATE SET token_hash = excluded.token_hash,
             organization_id = excluded.organization_id, email = excluded.email,
             created_at = excluded.created_at, expires_at = excluded.expires_at`,
          token.tokenHash,
          token.purpose,
          token.accountId,
          token.organizationId,
          token.email,
          millis(token.createdAt),
          millis(token.expiresAt)
        )
      }),
    find: (purpose, tokenHash) =>
      read((db) =>
        optionalRow(
          db.get("SELECT * FROM account_tokens WHERE token_hash = ? AND purpose = ?", tokenHash, purpose),
          toToken
        )
      ),
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
