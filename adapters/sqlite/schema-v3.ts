/**
 * Version 3: what a second review's rules need stored. A SCIM token's permissions, fixed when it was
 * made (a token made before acts with none until it is made again); the organisation's Owner role by
 * its id; when a role was last deactivated, before which its holders' sessions no longer count (a
 * role inactive now records now, so that its holders' sessions stay ended once it is active again).
 */
export const schemaV3 = `
ALTER TABLE scim_tokens ADD COLUMN permission_ids TEXT NOT NULL DEFAULT '[]';
ALTER TABLE organizations ADD COLUMN owner_role_id INTEGER;
ALTER TABLE roles ADD COLUMN deactivated_at INTEGER;
UPDATE roles SET deactivated_at = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) WHERE active = 0;
`
