/**
 * Version 13: an organisation may hold the members of its verified domains to single sign-on
 * (`sso_required`); and the catalog's permission 12 (`organization.sso.write`) for every role that
 * held the whole catalog before it (1 to 11). Domains, connections and sign-ins are declared
 * resources: the kit makes their tables.
 */
export const schemaV13 = `
ALTER TABLE organizations ADD COLUMN sso_required INTEGER NOT NULL DEFAULT 0;
UPDATE role_permissions SET permission_ids = json_insert(permission_ids, '$[#]', 12)
  WHERE (SELECT count(DISTINCT value) FROM json_each(role_permissions.permission_ids) WHERE value BETWEEN 1 AND 11) = 11
    AND NOT EXISTS (SELECT 1 FROM json_each(role_permissions.permission_ids) WHERE value = 12);
`
