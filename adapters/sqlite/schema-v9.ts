/**
 * Version 9: an organisation may require a second factor of its members, and a session records
 * whether it waits for its account's (none did before).
 */
export const schemaV9 = `
ALTER TABLE organizations ADD COLUMN require_mfa INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN mfa_pending INTEGER NOT NULL DEFAULT 0;
`
