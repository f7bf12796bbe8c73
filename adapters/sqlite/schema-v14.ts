/**
 * Version 14: how a session's sign-in was proved and when (`amr`, space-separated RFC 8176 names,
 * and `auth_time`), for the access tokens made from it. Sessions from before know neither: none
 * and their creation.
 */
export const schemaV14 = `
ALTER TABLE sessions ADD COLUMN amr TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN auth_time INTEGER;
`
