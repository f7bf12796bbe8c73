import type { ListRequest } from "./listing.ts"
import type { Projection } from "./projection.ts"
import { badRequest, failureResponse, ScimFailure } from "./scim-error.ts"

const numberOf = (text: string | null, name: string) => {
  if (text === null) return undefined
  const value = Number(text)
  return Number.isInteger(value) ? value : badRequest("invalidValue", `${name} must be an integer`)
}

/** The list parameters of a query string, or of a SearchRequest body. */
export const listRequestOf = (source: Record<string, unknown>): (ListRequest & Projection) | ScimFailure => {
  const text = (name: string) => (typeof source[name] === "string" ? (source[name] as string) : undefined)
  const number = (name: string) =>
    source[name] === undefined ? undefined : numberOf(String(source[name]), name)
  const startIndex = number("startIndex")
  const count = number("count")
  if (startIndex instanceof ScimFailure) return startIndex
  if (count instanceof ScimFailure) return count
  const list = (name: string) =>
    Array.isArray(source[name]) ? (source[name] as Array<string>).join(",") : text(name)
  return {
    filter: text("filter"),
    sortBy: text("sortBy"),
    sortOrder: text("sortOrder"),
    startIndex,
    count,
    attributes: list("attributes"),
    excludedAttributes: list("excludedAttributes")
  }
}

export const bodyOf = async (request: Request): Promise<unknown> => {
  try {
    // The edge read the body already, and hands it over through arrayBuffer() alone.
    return JSON.parse(new TextDecoder().decode(await request.arrayBuffer()))
  } catch {
    return badRequest("invalidSyntax", "The body is not JSON")
  }
}

export const methodNotAllowed = (allowed: string) =>
  failureResponse(new ScimFailure(405, `This endpoint serves ${allowed}`, undefined, { allow: allowed }))
