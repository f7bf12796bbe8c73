import { productPermissions } from "../resources/product-permissions.ts"
import type { SqliteConnection } from "./connection.ts"
import { ensureTable } from "./kit-table.ts"

/**
 * Version 16: the product's own permissions (a declared resource), by key, their ids unique, so
 * that a file at this version holds the table before any instance declares a key in it.
 */
export const schemaV16 = (db: SqliteConnection) => ensureTable(db, productPermissions)
