/**
 * The first schema. Instants are epoch milliseconds, flags 0 or 1. What no query looks into (a
 * subscription, an audit entry, a stored answer) is kept whole as JSON beside the columns queries
 * filter and sort on. Every query names its organisation, so the indexes lead with it.
 */
export const schemaV1 = `
CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  slug TEXT NOT NULL UNIQUE,
  default_role_id INTEGER,
  created_at INTEGER NOT NULL,
  deleting INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX organizations_in_creation_order ON organizations (created_at, id);

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  username TEXT NOT NULL,
  username_key TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  active INTEGER NOT NULL,
  epoch INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE memberships (
  organization_id TEXT NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  role_id INTEGER NOT NULL,
  active INTEGER NOT NULL,
  epoch INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (organization_id, account_id)
);
CREATE INDEX memberships_in_creation_order ON memberships (organization_id, created_at, account_id);
CREATE INDEX memberships_by_role ON memberships (organization_id, role_id, created_at, account_id);
CREATE INDEX memberships_of_account ON memberships (account_id, created_at, organization_id);

CREATE TABLE roles (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id TEXT NOT NULL,
  name TEXT NOT NULL,
  role_key TEXT NOT NULL,
  active INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  holders INTEGER NOT NULL DEFAULT 0,
  holders_changed_at INTEGER NOT NULL DEFAULT 0,
  UNIQUE (organization_id, role_key)
);

CREATE TABLE role_permissions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id TEXT NOT NULL,
  role_id INTEGER NOT NULL UNIQUE,
  permission_ids TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  member_id TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  member_epoch INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_of_member ON sessions (member_id, organization_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_at);

CREATE TABLE login_attempts (
  key TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL,
  keep_until INTEGER NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX login_attempts_by_expiry ON login_attempts (keep_until);

CREATE TABLE idempotency_keys (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  request_key TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  lease_until INTEGER NOT NULL,
  response TEXT,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);

CREATE TABLE subscriptions (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  provider_subscription_id TEXT,
  status TEXT NOT NULL,
  version INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  document TEXT NOT NULL
);
CREATE INDEX subscriptions_by_provider ON subscriptions (provider_subscription_id);
CREATE INDEX subscriptions_newest_first ON subscriptions (organization_id, created_at, id);

CREATE TABLE payment_inbox (
  event_id TEXT PRIMARY KEY,
  document TEXT NOT NULL
);

CREATE TABLE audit_events (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  action TEXT NOT NULL,
  actor_id TEXT,
  target_id TEXT NOT NULL,
  request_key TEXT,
  document TEXT NOT NULL
);
CREATE INDEX audit_newest_first ON audit_events (organization_id, at, id);
CREATE INDEX audit_by_action ON audit_events (organization_id, action, at, id);
CREATE INDEX audit_by_actor ON audit_events (organization_id, actor_id, at, id);
CREATE INDEX audit_by_target ON audit_events (organization_id, target_id, at, id);
CREATE INDEX audit_by_request_key ON audit_events (request_key);

CREATE TABLE invitations (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  email TEXT NOT NULL,
  role_id INTEGER NOT NULL,
  status TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX one_pending_invitation_per_email ON invitations (organization_id, email) WHERE status = 'pending';
CREATE INDEX invitations_in_creation_order ON invitations (organization_id, created_at, id);
`
