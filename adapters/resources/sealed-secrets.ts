import { Effect, Layer, Option } from "effect"
import { SealedSecrets } from "../../core/index.ts"
import { type OpenedResource, RecordKit } from "./records.ts"
import { keyOf } from "./resource.ts"

/** A record's place: its resource's name, then its key (neither holds the separator). */
const separator = "\u0000"
const placeOf = (resource: string, key: string) => `${resource}${separator}${key}`

/**
 * The sealed secrets of every resource the kit opened that declares some (`sealed`), in the order
 * of the resources' names, then of their keys; each reseal one `modify` of its record. What a new
 * resource seals is rotated by declaring where it keeps it.
 */
export const sealedSecretsLayer = Layer.effect(
  SealedSecrets,
  Effect.gen(function* () {
    const kit = yield* RecordKit
    const sealing = Effect.map(kit.opened, (opened) =>
      opened
        .filter((resource) => resource.declared.sealed !== undefined)
        .sort((a, b) => (a.declared.name < b.declared.name ? -1 : 1))
    )
    const byKey = (resource: OpenedResource, key: string) =>
      typeof resource.declared.key === "string" ? { [resource.declared.key]: key } : undefined
    return SealedSecrets.of({
      page: (after, limit) =>
        Effect.gen(function* () {
          const [afterResource, afterKey] = after === undefined ? [] : after.split(separator)
          const found: Array<{ readonly place: string; readonly sealed: ReadonlyArray<never> }> = []
          for (const resource of yield* sealing) {
            const { name, key, sealed } = resource.declared
            if (afterResource !== undefined && name < afterResource) continue
            const start = name === afterResource && afterKey !== undefined && typeof key === "string"
            const records = yield* resource.records.list(
              {},
              { by: [], ...(start ? { after: { [key]: afterKey } } : {}), limit: limit - found.length }
            )
            for (const record of records) {
              found.push({
                place: placeOf(name, keyOf(resource.declared, record)),
                sealed: sealed?.of(record) as never
              })
            }
            if (found.length >= limit) break
          }
          return found
        }),
      reseal: (place, from, to) =>
        Effect.gen(function* () {
          const [name, key = ""] = place.split(separator)
          const resource = (yield* sealing).find((opened) => opened.declared.name === name)
          const where = resource === undefined ? undefined : byKey(resource, key)
          if (resource === undefined || where === undefined) return false
          const sealed = resource.declared.sealed
          const changed = yield* resource.records.modify(where, (record) =>
            sealed?.of(record).includes(from) === true ? sealed.replace(record, from, to) : undefined
          )
          return Option.exists(changed, (found) => found.changed)
        })
    })
  })
)
