/**
 * Version 7: what a session shows its owner: a public id (sessions from before take one made from
 * their digest's first half, which tells nothing of the token), the minute it was last used in, and
 * where it was opened from.
 */
export const schemaV7 = `
ALTER TABLE sessions ADD COLUMN id TEXT;
ALTER TABLE sessions ADD COLUMN last_seen_at INTEGER;
ALTER TABLE sessions ADD COLUMN user_agent TEXT;
ALTER TABLE sessions ADD COLUMN address TEXT;
UPDATE sessions SET id = 'ses_' || substr(token_hash, 1, 32), last_seen_at = created_at;
CREATE UNIQUE INDEX sessions_by_id ON sessions (id);
`
