import { Schema } from "effect"
import { PermissionId } from "./ids.ts"
import { isDisplayable } from "./text.ts"

/** Roster's own namespaces: a product permission's key never starts with one. */
const reservedNamespaces: ReadonlySet<string> = new Set([
  "team",
  "organization",
  "billing",
  "admin",
  "audit",
  "roster"
])

/** The first segment of a key: what comes before its first `.` or `:`. */
export const namespaceOf = (key: string): string => key.split(/[.:]/u, 1)[0] ?? key

/**
 * A product permission's key: 3–100 of `[a-z0-9_.:-]`, starting with a letter and holding a `.` or
 * a `:` (`projects.delete`, `invoices:read`), in none of Roster's namespaces. Compared as bytes,
 * never normalised: `A.b` is refused, and `a.b` and `a:b` are two keys.
 */
export const ProductPermissionKey = Schema.String.check(
  Schema.isPattern(/^[a-z][a-z0-9_.:-]{2,99}$/u),
  Schema.isPattern(/[.:]/u),
  Schema.makeFilter(
    (key: string) =>
      !reservedNamespaces.has(namespaceOf(key)) ||
      `Expected a key outside Roster's own namespaces (${[...reservedNamespaces].join(", ")})`
  )
)

export const ProductPermissionDescription = Schema.String.check(Schema.isBetweenLength(0, 500), isDisplayable)

/**
 * Where a product permission is: `declared` (grantable), `retiring` (being retired: no grant from
 * then on, while its holders are counted), `retired` (its id kept for its key alone).
 */
export const ProductPermissionState = Schema.Literals(["declared", "retiring", "retired"])
export type ProductPermissionState = typeof ProductPermissionState.Type

/** The first id a product permission gets; Roster's own keep 1–999. */
export const firstProductPermissionId = 1000

/** A permission the product declared, with its state; ids from 1000, one per key for ever. */
export class ProductPermissionRecord extends Schema.Class<ProductPermissionRecord>(
  "roster/ProductPermissionRecord"
)({
  id: PermissionId,
  key: Schema.String,
  description: Schema.String,
  state: ProductPermissionState,
  createdAt: Schema.DateTimeUtc
}) {}

/** A product permission as answered: `{ id, key, description, kind: "product", createdAt }`. */
export class ProductPermission extends Schema.Class<ProductPermission>("roster/ProductPermission")({
  id: PermissionId,
  key: Schema.String,
  description: Schema.String,
  kind: Schema.Literal("product"),
  createdAt: Schema.DateTimeUtc
}) {}

export const toProductPermission = (record: ProductPermissionRecord): ProductPermission =>
  new ProductPermission({
    id: record.id,
    key: record.key,
    description: record.description,
    kind: "product",
    createdAt: record.createdAt
  })
