import { Effect, Layer, Option } from "effect"
import {
  firstProductPermissionId,
  PermissionId,
  ProductPermissionRecord,
  ProductPermissionStore,
  type StoreUnavailable
} from "../../core/index.ts"
import { RecordKit, refusalIsDefect, Taken } from "./records.ts"
import { resource } from "./resource.ts"

/**
 * The product's permissions, by key; `id` unique, so that of two instances giving a new key the
 * next id, or two new keys the same one, one write holds and the other tries again.
 */
export const productPermissions = resource({
  name: "product_permissions",
  schema: ProductPermissionRecord,
  key: "key",
  columns: ["key", "id", "state"],
  unique: [["id"]]
})

export const productPermissionStoreLayer = Layer.effect(
  ProductPermissionStore,
  Effect.gen(function* () {
    const permissions = yield* (yield* RecordKit).open(productPermissions)
    const findByKey = (key: string) => permissions.find({ key })
    // Ids are never freed (a retired key keeps its own), so the next is one past the highest.
    const nextId = permissions
      .list({}, { by: ["id"], descending: true, limit: 1 })
      .pipe(
        Effect.map(([highest]) =>
          PermissionId.make(Math.max(highest?.id ?? 0, firstProductPermissionId - 1) + 1)
        )
      )
    const redeclare = (key: string, description: string) =>
      permissions.modify({ key }, (record) =>
        record.state === "declared" && record.description === description
          ? undefined
          : new ProductPermissionRecord({ ...record, description, state: "declared" })
      )
    const declare = (
      key: string,
      description: string,
      at: ProductPermissionRecord["createdAt"]
    ): Effect.Effect<ProductPermissionRecord, StoreUnavailable> =>
      Effect.gen(function* () {
        const changed = yield* redeclare(key, description)
        if (Option.isSome(changed)) return changed.value.after
        const record = new ProductPermissionRecord({
          id: yield* nextId,
          key,
          description,
          state: "declared",
          createdAt: at
        })
        const inserted = yield* refusalIsDefect(
          permissions.insert(record).pipe(
            Effect.as(true),
            Effect.catchIf(
              (error): error is Taken => error instanceof Taken,
              () => Effect.succeed(false)
            )
          )
        )
        // Another instance took the key or the id meanwhile: read again what is there now.
        return inserted ? record : yield* declare(key, description, at)
      })
    return ProductPermissionStore.of({
      declare,
      findByKey,
      findById: (id) => permissions.find({ id }),
      list: (state) => permissions.list({ state }, { by: ["id"] }),
      move: (key, from, to) =>
        permissions
          .modify({ key }, (record) =>
            record.state === from ? new ProductPermissionRecord({ ...record, state: to }) : undefined
          )
          .pipe(
            Effect.map(Option.filter((changed) => changed.changed)),
            Effect.map(Option.map((c) => c.after))
          )
    })
  })
)
