/**
 * Version 5: API keys, found by their lookup part, their secret known by its digest; and the
 * catalog's permission 10 (`organization.api_keys.write`) for every role that held the whole
 * catalog before it (1 to 9), so that owners stay owners.
 */
export const schemaV5 = `
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  name TEXT NOT NULL,
  lookup TEXT NOT NULL UNIQUE,
  start TEXT NOT NULL,
  permission_ids TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  last_used_at INTEGER,
  secret_hash TEXT NOT NULL,
  previous_secret_hash TEXT,
  previous_until INTEGER
);
CREATE INDEX api_keys_in_creation_order ON api_keys (organization_id, created_at, id);
UPDATE role_permissions SET permission_ids = json_insert(permission_ids, '$[#]', 10)
  WHERE (SELECT count(DISTINCT value) FROM json_each(role_permissions.permission_ids) WHERE value BETWEEN 1 AND 9) = 9
    AND NOT EXISTS (SELECT 1 FROM json_each(role_permissions.permission_ids) WHERE value = 10);
`
