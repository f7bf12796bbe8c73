import { Effect, Option, Schema } from "effect"
import { UnknownPermission } from "../model/errors.ts"
import { PermissionId } from "../model/ids.ts"
import { PermissionCatalog, type PermissionRef } from "../model/permission.ts"
import { everyPermission, type PermissionSet } from "../model/permission-set.ts"
import { firstProductPermissionId, type ProductPermissionRecord } from "../model/product-permission.ts"
import { ProductPermissionStore } from "../ports/product-permission-store.ts"

/** A permission of the catalog as listed: Roster's own (ids 1–999) or one the product declared. */
export class CatalogPermission extends Schema.Class<CatalogPermission>("roster/CatalogPermission")({
  id: PermissionId,
  key: Schema.String,
  description: Schema.String,
  kind: Schema.Literals(["roster", "product"])
}) {}

const rosterEntries = PermissionCatalog.map(
  (permission) =>
    new CatalogPermission({
      id: permission.id,
      key: permission.key,
      description: permission.description,
      kind: "roster"
    })
)
const rosterById = new Map(rosterEntries.map((entry) => [entry.id as number, entry]))
const rosterByKey = new Map(rosterEntries.map((entry) => [entry.key, entry]))

const productEntry = (record: ProductPermissionRecord) =>
  new CatalogPermission({ id: record.id, key: record.key, description: record.description, kind: "product" })

/** Roster's own permission `ref` names, if it names one: known without asking the store. */
export const rosterPermissionOf = (ref: PermissionRef): CatalogPermission | undefined =>
  typeof ref === "number" ? rosterById.get(ref) : rosterByKey.get(ref)

/**
 * The one place a permission's id or key is resolved, Roster's and the product's alike: Roster's
 * from its fixed catalog, the product's read from the store each time (never remembered), and only
 * while declared (a retiring or retired one is no longer granted, nor asked about).
 */
export const resolvePermission = (ref: PermissionRef) =>
  Effect.gen(function* () {
    const roster = rosterPermissionOf(ref)
    if (roster !== undefined) return Option.some(roster)
    if (typeof ref === "number" && (ref < firstProductPermissionId || !Number.isSafeInteger(ref)))
      return Option.none<CatalogPermission>()
    const store = yield* ProductPermissionStore
    const found =
      typeof ref === "number" ? yield* store.findById(PermissionId.make(ref)) : yield* store.findByKey(ref)
    return Option.map(
      Option.filter(found, (record) => record.state === "declared"),
      productEntry
    )
  })

/** `resolvePermission`, refusing (422 `unknown_permission`) what no declared permission is. */
export const grantablePermission = (ref: PermissionRef) =>
  Effect.flatMap(resolvePermission(ref), (found) =>
    Option.isSome(found)
      ? Effect.succeed(found.value)
      : Effect.fail(new UnknownPermission({ permission: ref }))
  )

/** Each of `refs` resolved, in order, by id; the first unknown one refused. */
export const grantablePermissionIds = (refs: ReadonlyArray<PermissionRef>) =>
  Effect.forEach(refs, (ref) => Effect.map(grantablePermission(ref), (found) => found.id))

/** The whole catalog as it is now: Roster's permissions, then the product's declared ones, by id. */
export const catalogPermissions = Effect.map(
  ProductPermissionStore.use((store) => store.list("declared")),
  (declared): ReadonlyArray<CatalogPermission> => [...rosterEntries, ...declared.map(productEntry)]
)

/** Whether an id is Roster's own permission (or the marker): what no product declaration touches. */
export const isRosterPermission = (id: PermissionId): boolean => id === everyPermission || rosterById.has(id)

/**
 * The permissions `held` stands for now: the marker ("every permission") read as Roster's and
 * every product permission declared, for comparing a list with a caller's (the ceiling).
 */
export const expandedPermissions = (held: Iterable<PermissionId>) =>
  Effect.gen(function* () {
    const ids = new Set(held)
    if (!ids.has(everyPermission)) return ids as PermissionSet
    ids.delete(everyPermission)
    for (const permission of yield* catalogPermissions) ids.add(permission.id)
    return ids as PermissionSet
  })

const holdsProductPermissions = (held: PermissionSet) => {
  for (const id of held) if (id === everyPermission || id >= firstProductPermissionId) return true
  return false
}

/**
 * The keys of `held`, in the catalog's order: Roster's, then the product's by id. The product's
 * declared ones are read only for a set that may hold one, so that a caller holding Roster's
 * permissions alone costs no read more than before the product declared any.
 */
export const keysOf = (held: PermissionSet) =>
  holdsProductPermissions(held)
    ? Effect.map(catalogPermissions, (catalog) =>
        catalog.filter((permission) => held.has(permission.id)).map((permission) => permission.key)
      )
    : Effect.succeed(
        rosterEntries.filter((permission) => held.has(permission.id)).map((permission) => permission.key)
      )
