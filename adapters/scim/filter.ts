import { filter as compile, type Filter, parse } from "scim2-parse-filter"
import { badRequest, type ScimFailure } from "./scim-error.ts"
import { withoutCoreSchema } from "./urns.ts"

/** The attributes a filter or a sort may name, by their lower-cased names (names ignore case). */
const known = new Map(
  [
    "id",
    "externalId",
    "userName",
    "displayName",
    "active",
    "emails",
    "emails.value",
    "emails.type",
    "emails.primary",
    "name.givenName",
    "name.familyName",
    "name.formatted",
    "members",
    "members.value",
    "groups",
    "groups.value",
    "groups.display",
    "meta.created",
    "meta.lastModified",
    "meta.resourceType",
    "meta.version",
    "value",
    "type",
    "primary",
    "display"
  ].map((path) => [path.toLowerCase(), path])
)

/** Compared as written: ids are case-exact, every other text attribute ignores case. */
const caseExact = new Set(["id", "externalId", "members.value", "groups.value", "meta.version"])
const instants = new Set(["meta.created", "meta.lastModified"])

/** An attribute path as resources spell it, or none when Roster has no such attribute. */
export const canonicalPath = (path: string): string | undefined =>
  known.get(withoutCoreSchema(path).toLowerCase())

const invalid = (detail: string) => badRequest("invalidFilter", detail)

/** The filter with its paths as resources spell them, its texts and instants as they are compared. */
const normalized = (node: Filter, within?: string): Filter | ScimFailure => {
  switch (node.op) {
    case "and":
    case "or": {
      const filters: Array<Filter> = []
      for (const part of node.filters) {
        const done = normalized(part, within)
        if (!("op" in done)) return done
        filters.push(done)
      }
      return { ...node, filters }
    }
    case "not": {
      const inner = normalized(node.filter, within)
      return "op" in inner ? { ...node, filter: inner } : inner
    }
    case "[]": {
      const attrPath = canonicalPath(node.attrPath)
      if (attrPath === undefined) return invalid(`No attribute ${node.attrPath} to filter on`)
      const valFilter = normalized(node.valFilter, attrPath)
      return "op" in valFilter ? { ...node, attrPath, valFilter } : valFilter
    }
    default: {
      const attrPath = canonicalPath(node.attrPath)
      if (attrPath === undefined) return invalid(`No attribute ${node.attrPath} to filter on`)
      if (node.op === "pr" || typeof node.compValue !== "string") return { ...node, attrPath }
      const full = within === undefined ? attrPath : `${within}.${attrPath}`
      if (instants.has(full)) {
        const at = new Date(node.compValue)
        if (Number.isNaN(at.getTime())) return invalid(`${node.compValue} is no instant`)
        return { ...node, attrPath, compValue: at.toISOString() }
      }
      return {
        ...node,
        attrPath,
        compValue: caseExact.has(full) ? node.compValue : node.compValue.toLowerCase()
      }
    }
  }
}

/** Text attributes lower-cased, but for the case-exact ones: what a filter's texts are compared with. */
export const comparable = (value: unknown, path = ""): unknown => {
  if (typeof value === "string") return caseExact.has(path) ? value : value.toLowerCase()
  if (Array.isArray(value)) return value.map((item) => comparable(item, path))
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      key,
      comparable(field, path === "" ? key : `${path}.${key}`)
    ])
  )
}

/** A predicate over comparable resources (see `comparable`), or why the filter is refused. */
export const compileFilter = (text: string): ((resource: unknown) => boolean) | ScimFailure => {
  let tree: Filter
  try {
    tree = parse(text)
  } catch (error) {
    return invalid(`The filter does not parse: ${error instanceof Error ? error.message : String(error)}`)
  }
  const done = normalized(tree)
  return "op" in done ? compile(done) : done
}

/** The userName a filter asks for when it is `userName eq "…"` alone: what providers ask on every sync. */
export const userNameSought = (text: string): string | undefined => {
  try {
    const tree = parse(text)
    return tree.op === "eq" &&
      "attrPath" in tree &&
      canonicalPath(tree.attrPath) === "userName" &&
      typeof tree.compValue === "string"
      ? tree.compValue
      : undefined
  } catch {
    return undefined
  }
}
