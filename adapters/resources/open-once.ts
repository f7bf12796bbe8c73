import { Effect } from "effect"
import type { StoreUnavailable } from "../../core/index.ts"
import { isDeclared } from "./declared.ts"
import { type KitRecords, type OpenedResource, type Records, withModify } from "./records.ts"
import type { Resource } from "./resource.ts"

/**
 * A kit's `open`: a resource opened once per build (the stores that share it share its records),
 * after `prepare` (its table, its indexes), and only if it is among the declared resources.
 */
export const openOnce =
  (
    prepare: (declared: Resource<object>) => Effect.Effect<void, StoreUnavailable>,
    make: (declared: Resource<object>) => KitRecords<object, string>,
    opened: Map<string, OpenedResource>
  ) =>
  <R extends object, C extends string>(
    declared: Resource<R, C>
  ): Effect.Effect<Records<R, C>, StoreUnavailable> =>
    Effect.suspend(() => {
      if (!isDeclared(declared)) {
        return Effect.die(
          new Error(`${declared.name} is not among the declared resources (adapters/resources/declared.ts)`)
        )
      }
      const found = opened.get(declared.name)
      if (found !== undefined) return Effect.succeed(found.records as unknown as Records<R, C>)
      const general = declared as unknown as Resource<object>
      return prepare(general).pipe(
        Effect.map(() => {
          const records = withModify(make(general))
          opened.set(declared.name, { declared: general, records } as OpenedResource)
          return records as unknown as Records<R, C>
        })
      )
    })
