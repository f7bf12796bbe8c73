/**
 * Version 10: webhook endpoints and their deliveries; the record's entries of announced changes
 * marked unsent until they are turned into deliveries (none before: what was recorded before
 * endpoints existed is not announced); and the catalog's permission 11
 * (`organization.webhooks.write`) for every role that held the whole catalog before it (1 to 10).
 */
export const schemaV10 = `
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  enabled INTEGER NOT NULL,
  document TEXT NOT NULL
);
CREATE INDEX webhooks_in_creation_order ON webhooks (organization_id, created_at, id);
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  next_attempt_at INTEGER,
  lease_until INTEGER,
  claim TEXT,
  document TEXT NOT NULL,
  UNIQUE (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_newest_first ON webhook_deliveries (webhook_id, created_at, id);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX webhook_deliveries_ended ON webhook_deliveries (updated_at) WHERE next_attempt_at IS NULL;
ALTER TABLE audit_events ADD COLUMN unsent INTEGER;
CREATE INDEX audit_events_unsent ON audit_events (at, id) WHERE unsent = 1;
UPDATE role_permissions SET permission_ids = json_insert(permission_ids, '$[#]', 11)
  WHERE (SELECT count(DISTINCT value) FROM json_each(role_permissions.permission_ids) WHERE value BETWEEN 1 AND 10) = 10
    AND NOT EXISTS (SELECT 1 FROM json_each(role_permissions.permission_ids) WHERE value = 11);
`
