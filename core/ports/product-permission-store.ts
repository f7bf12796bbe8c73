import { Context, type DateTime, type Effect, type Option } from "effect"
import type { StoreUnavailable } from "../model/errors.ts"
import type { PermissionId } from "../model/ids.ts"
import type { ProductPermissionRecord, ProductPermissionState } from "../model/product-permission.ts"

/**
 * The product's permissions, shared by every instance on the store and read from it each time (no
 * instance remembers one): ids are the store's to allocate, from 1000, one per key for ever.
 */
export class ProductPermissionStore extends Context.Service<
  ProductPermissionStore,
  {
    /**
     * Declares the key with its description: a new key gets the next id (two instances declaring
     * it at once get one); a known one keeps its id and takes the description, and is declared
     * again if it was retiring or retired. Answers the record as it is now.
     */
    readonly declare: (
      key: string,
      description: string,
      at: DateTime.Utc
    ) => Effect.Effect<ProductPermissionRecord, StoreUnavailable>
    readonly findByKey: (
      key: string
    ) => Effect.Effect<Option.Option<ProductPermissionRecord>, StoreUnavailable>
    readonly findById: (
      id: PermissionId
    ) => Effect.Effect<Option.Option<ProductPermissionRecord>, StoreUnavailable>
    /** Every permission in `state`, by id. */
    readonly list: (
      state: ProductPermissionState
    ) => Effect.Effect<ReadonlyArray<ProductPermissionRecord>, StoreUnavailable>
    /**
     * Moves the key from `from` to `to`, answering the record as it left it; none when there is no
     * such key or it was not in `from` (another instance moved it first).
     */
    readonly move: (
      key: string,
      from: ProductPermissionState,
      to: ProductPermissionState
    ) => Effect.Effect<Option.Option<ProductPermissionRecord>, StoreUnavailable>
  }
>()("roster/core/ports/ProductPermissionStore") {}
