/**
 * Version 6: whether an account proved its e-mail (no account has, yet), and the one-time tokens
 * mailed to accounts (a password reset, a verification), known by their digest, one per account and
 * purpose.
 */
export const schemaV6 = `
ALTER TABLE accounts ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0;
CREATE TABLE account_tokens (
  token_hash TEXT PRIMARY KEY,
  purpose TEXT NOT NULL,
  account_id TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  email TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  UNIQUE (account_id, purpose)
);
CREATE INDEX account_tokens_by_expiry ON account_tokens (expires_at);
`
