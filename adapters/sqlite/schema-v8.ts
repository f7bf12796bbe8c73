/**
 * Version 8: accounts' second factors (the TOTP secret, sealed; one enrolled but not yet
 * confirmed; the last time step taken; the digests of the unused recovery codes), and how many
 * tries an account's token has left (a login's challenge has several, a mailed link one). An
 * account's second factor goes with it.
 */
export const schemaV8 = `
CREATE TABLE account_mfa (
  account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  secret TEXT,
  pending TEXT,
  last_step INTEGER NOT NULL,
  recovery_codes TEXT NOT NULL
);
ALTER TABLE account_tokens ADD COLUMN tries_left INTEGER NOT NULL DEFAULT 1;
`
