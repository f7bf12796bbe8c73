import { readFileSync } from "node:fs"
import { beforeAll, describe, expect, it } from "vitest"
import { startApi } from "../support/http.ts"

// biome-ignore lint/suspicious/noExplicitAny: the document is inspected as plain JSON
let document: any

beforeAll(async () => {
  document = (await (await startApi()).call("GET", "/api/v1/openapi.json")).body
})

interface Row {
  readonly method: string
  readonly path: string
  readonly query: ReadonlyArray<string>
  /** The body's fields as the table names them, `?` marking the optional ones; undefined: not named. */
  readonly body: string | undefined
}

/** The rows of docs/http-api.md's table of endpoints under `/api/v1`, one per operation they name. */
const tableRows = (): ReadonlyArray<Row> => {
  const readme = readFileSync("docs/http-api.md", "utf8")
  const start = readme.indexOf("# The HTTP API")
  const section = readme.slice(start, readme.indexOf("Every error is an RFC 9457", start))
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `") && !line.includes("no `/api/v1`"))
    .flatMap((line) => {
      const [operations = "", body = ""] = line
        .split("|")
        .slice(1)
        .map((cell) => cell.trim())
      const groups = [...body.matchAll(/`([^`]*)`/gu)].map(([, group]) => group)
      const named = groups.length === 0 ? undefined : groups.join(", ")
      return [...operations.matchAll(/`(GET|POST|PATCH|DELETE|PUT) ([^`?]+)(?:\?([^`]*))?`/gu)].map(
        ([, method = "", path = "", query]) => ({
          method: method.toLowerCase(),
          path: `/api/v1${path}`,
          query: query === undefined ? [] : query.split("&"),
          body:
            body.startsWith("any of") && named !== undefined
              ? named.replaceAll(/(\w)(?=,|$)/gu, "$1?")
              : named
        })
      )
    })
}

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema read as plain JSON
type JsonSchema = any

const resolved = (schema: JsonSchema): JsonSchema =>
  schema.$ref === undefined ? schema : document.components.schemas[schema.$ref.split("/").pop() ?? ""]

/** A body's shapes: each alternative of a union, or the one object. */
const shapesOf = (schema: JsonSchema): ReadonlyArray<JsonSchema> => {
  const object = resolved(schema)
  return (object.anyOf ?? object.oneOf ?? [object]).map(resolved)
}

/**
 * The body's fields as the document declares them, in the table's words: `a, b?, c { d, e }`; of
 * a union, every field of any of its shapes, required when every shape requires it.
 */
const declaredFields = (schema: JsonSchema): string => {
  const shapes = shapesOf(schema)
  const fields = new Map<string, JsonSchema>()
  for (const shape of shapes)
    for (const [name, property] of Object.entries(shape.properties ?? {})) fields.set(name, property)
  return [...fields]
    .map(([name, property]) => {
      const object = resolved(property)
      const nested =
        object.type === "object" && object.properties !== undefined ? ` { ${declaredFields(object)} }` : ""
      const required = shapes.every((shape) => (shape.required ?? []).includes(name))
      return `${name}${required ? "" : "?"}${nested}`
    })
    .sort()
    .join(", ")
}

const tableFields = (named: string) => {
  const fields: Array<string> = []
  let depth = 0
  let current = ""
  for (const character of named) {
    if (character === "," && depth === 0) {
      fields.push(current.trim())
      current = ""
      continue
    }
    if (character === "{") depth++
    if (character === "}") depth--
    current += character
  }
  fields.push(current.trim())
  return fields
    .map((field) => field.replace(/ \(or e-mail\)/u, ""))
    .sort()
    .join(", ")
}

describe("the HTTP API page's table of endpoints", () => {
  it("names every operation of the OpenAPI document under /api/v1, and no other", () => {
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`)
    )
    // The document and its page serve the interface; the document does not list itself.
    const aboutTheInterface = new Set(["get /api/v1/openapi.json", "get /api/v1/docs"])
    const tabled = tableRows()
      .map(({ method, path }) => `${method} ${path}`)
      .filter((operation) => !aboutTheInterface.has(operation))
    expect(new Set(tabled)).toEqual(
      new Set(documented.filter((operation) => operation.includes(" /api/v1/")))
    )
  })

  it("gives each operation the query parameters and body fields the document declares", () => {
    for (const row of tableRows().filter(({ path }) => document.paths[path] !== undefined)) {
      const operation = document.paths[row.path][row.method]
      const query = (operation.parameters ?? [])
        .filter((parameter: { in: string }) => parameter.in === "query")
        .map((parameter: { name: string }) => parameter.name)
      expect(new Set(row.query), `${row.method} ${row.path}: query`).toEqual(new Set(query))
      const schema = operation.requestBody?.content?.["application/json"]?.schema
      if (row.body === undefined || schema === undefined) continue
      expect(tableFields(row.body), `${row.method} ${row.path}: body`).toBe(declaredFields(schema))
    }
  })
})
