import { canonicalPath, comparable, compileFilter } from "./filter.ts"
import { maxResults } from "./limits.ts"
import type { Resource } from "./resources.ts"
import { badRequest, ScimFailure } from "./scim-error.ts"
import { listResponseId } from "./urns.ts"

/** What a list asks for, from the query string or a SearchRequest body. */
export interface ListRequest {
  readonly filter?: string | undefined
  readonly sortBy?: string | undefined
  readonly sortOrder?: string | undefined
  readonly startIndex?: number | undefined
  readonly count?: number | undefined
}

const valueAt = (resource: unknown, path: string): unknown => {
  let value: unknown = resource
  for (const key of path.split(".")) {
    if (Array.isArray(value)) value = (value.find((entry) => entry?.primary === true) ?? value[0]) as unknown
    value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined
  }
  return Array.isArray(value) ? value[0] : value
}

/** Ascending order of two values; absent ones last, whichever the order (RFC 7644 §3.4.2.3). */
const compare = (a: unknown, b: unknown) => {
  if (a === undefined) return b === undefined ? 0 : 1
  if (b === undefined) return -1
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0
}

/**
 * The page a list request asks for: filtered, sorted, then from `startIndex` (1-based) at most
 * `count` resources (`maxResults` at most). A bad filter or sort is a failure.
 */
export const listPage = (resources: ReadonlyArray<Resource>, request: ListRequest) => {
  const test = request.filter === undefined ? undefined : compileFilter(request.filter)
  if (test instanceof ScimFailure) return test
  const path = request.sortBy === undefined ? undefined : canonicalPath(request.sortBy)
  if (request.sortBy !== undefined && path === undefined) {
    return badRequest("invalidPath", `No attribute ${request.sortBy} to sort by`)
  }
  let matching = resources
  if (test !== undefined || path !== undefined) {
    // Each resource made comparable once, for the filter and the sort alike.
    let seen = resources.map((resource) => ({ resource, view: comparable(resource) }))
    if (test !== undefined) seen = seen.filter(({ view }) => test(view))
    if (path !== undefined) {
      const descending = request.sortOrder?.toLowerCase() === "descending"
      seen = seen
        .map((entry) => ({ ...entry, key: valueAt(entry.view, path) }))
        .sort((a, b) =>
          descending && a.key !== undefined && b.key !== undefined
            ? compare(b.key, a.key)
            : compare(a.key, b.key)
        )
    }
    matching = seen.map(({ resource }) => resource)
  }
  const startIndex = Math.max(1, Math.trunc(request.startIndex ?? 1))
  const count = Math.min(maxResults, Math.max(0, Math.trunc(request.count ?? maxResults)))
  const page = matching.slice(startIndex - 1, startIndex - 1 + count)
  return { totalResults: matching.length, startIndex, page }
}

export const listResponse = (
  listed: { readonly totalResults: number; readonly startIndex: number },
  resources: ReadonlyArray<object>
) => ({
  schemas: [listResponseId],
  totalResults: listed.totalResults,
  itemsPerPage: resources.length,
  startIndex: listed.startIndex,
  Resources: resources
})
