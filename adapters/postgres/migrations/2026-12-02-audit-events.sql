-- The audit record: each entry whole (document) beside the columns it is found by. A change and
-- its entry are written in one transaction; `unsent` marks the entries of announced changes that
-- the outbound events have not taken yet.
CREATE TABLE audit_events (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  at timestamptz NOT NULL,
  action text COLLATE "C" NOT NULL,
  actor_id text COLLATE "C",
  target_id text COLLATE "C" NOT NULL,
  request_key text COLLATE "C",
  document jsonb NOT NULL,
  unsent boolean
);
CREATE INDEX audit_newest_first ON audit_events (organization_id, at, id);
CREATE INDEX audit_by_action ON audit_events (organization_id, action, at, id);
CREATE INDEX audit_by_actor ON audit_events (organization_id, actor_id, at, id);
CREATE INDEX audit_by_target ON audit_events (organization_id, target_id, at, id);
CREATE INDEX audit_by_request_key ON audit_events (request_key);
CREATE INDEX audit_unsent ON audit_events (at, id) WHERE unsent;
