/**
 * Version 2: SCIM. Organisations' SCIM tokens (by hash), and what identity providers keep on members
 * and roles, each profile whole as JSON beside the columns that are looked up or kept unique.
 */
export const schemaV2 = `
CREATE TABLE scim_tokens (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);
CREATE INDEX scim_tokens_in_creation_order ON scim_tokens (organization_id, created_at, id);
CREATE TABLE user_profiles (
  organization_id TEXT NOT NULL,
  member_id TEXT NOT NULL,
  user_name_key TEXT NOT NULL,
  profile TEXT NOT NULL,
  PRIMARY KEY (organization_id, member_id)
);
CREATE UNIQUE INDEX one_user_name_per_organization ON user_profiles (organization_id, user_name_key);
CREATE TABLE group_profiles (
  organization_id TEXT NOT NULL,
  role_id INTEGER NOT NULL,
  profile TEXT NOT NULL,
  PRIMARY KEY (organization_id, role_id)
);
`
