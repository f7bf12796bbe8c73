/**
 * Version 4: roles no longer count their holders. A member is written into a role, and a role
 * deleted, each in one transaction that reads the other's rows, so the count had nothing to guard.
 */
export const schemaV4 = `
ALTER TABLE roles DROP COLUMN holders;
ALTER TABLE roles DROP COLUMN holders_changed_at;
`
