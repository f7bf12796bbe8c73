/**
 * Version 11: a one-time token records its account's session epoch when it was made, so that
 * whatever ends the account's sessions (a password set, the account disabled) ends it too; tokens
 * stored before carry none (-1), which no epoch is, and are worth nothing.
 */
export const schemaV11 = `
ALTER TABLE account_tokens ADD COLUMN session_epoch INTEGER NOT NULL DEFAULT -1;
`
