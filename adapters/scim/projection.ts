import type { Resource } from "./resources.ts"
import { withoutCoreSchema } from "./urns.ts"

/** Returned whatever `attributes` or `excludedAttributes` say (RFC 7643 §7, "returned": "always"). */
const always = new Set(["schemas", "id"])

/** A comma-separated list of attribute paths, lower-cased, without the core schema's URN. */
const pathsOf = (list: string) =>
  list
    .split(",")
    .map((path) => withoutCoreSchema(path.trim()).toLowerCase())
    .filter((path) => path.length > 0)

const keepOnly = (value: unknown, wanted: ReadonlyArray<string>): unknown => {
  if (Array.isArray(value)) return value.map((item) => keepOnly(item, wanted))
  if (typeof value !== "object" || value === null) return value
  const kept: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    const name = key.toLowerCase()
    if (wanted.includes(name)) kept[key] = field
    else {
      const inner = wanted
        .filter((path) => path.startsWith(`${name}.`))
        .map((path) => path.slice(name.length + 1))
      if (inner.length > 0) kept[key] = keepOnly(field, inner)
    }
  }
  return kept
}

const leaveOut = (value: unknown, unwanted: ReadonlyArray<string>): unknown => {
  if (Array.isArray(value)) return value.map((item) => leaveOut(item, unwanted))
  if (typeof value !== "object" || value === null) return value
  const kept: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    const name = key.toLowerCase()
    if (unwanted.includes(name)) continue
    const inner = unwanted
      .filter((path) => path.startsWith(`${name}.`))
      .map((path) => path.slice(name.length + 1))
    kept[key] = inner.length > 0 ? leaveOut(field, inner) : field
  }
  return kept
}

export interface Projection {
  readonly attributes?: string | undefined
  readonly excludedAttributes?: string | undefined
}

/** What of a resource is answered: all of it, only `attributes`, or all but `excludedAttributes`. */
export const project = (resource: Resource, { attributes, excludedAttributes }: Projection): object => {
  if (attributes !== undefined && attributes.trim() !== "") {
    const wanted = [...pathsOf(attributes), ...always]
    return keepOnly(resource, wanted) as object
  }
  if (excludedAttributes !== undefined && excludedAttributes.trim() !== "") {
    return leaveOut(
      resource,
      pathsOf(excludedAttributes).filter((path) => !always.has(path))
    ) as object
  }
  return resource
}
