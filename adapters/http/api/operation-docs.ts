import { OpenApi } from "effect/http-api"

/** An operation of the generated document, as far as its documentation touches it. */
interface Operation {
  requestBody?: { content?: Record<string, { example?: unknown }> }
  parameters?: Array<{ name: string; in: string; example?: unknown }>
  responses?: Record<string, { links?: object }>
}

export interface OperationDocs {
  /** A request body the operation accepts, shown as the docs page's starting point. */
  readonly example?: Record<string, unknown>
  /** Path parameters that name something the examples created. */
  readonly params?: Record<string, string>
  /** How its answer feeds the next operations (OpenAPI links), by name. */
  readonly links?: Record<string, object>
}

const withDocs = (operation: Operation, { example, params, links }: OperationDocs) => {
  if (example !== undefined) {
    for (const media of Object.values(operation.requestBody?.content ?? {})) media.example = example
  }
  for (const parameter of operation.parameters ?? []) {
    const value = parameter.in === "path" ? params?.[parameter.name] : undefined
    if (value !== undefined) parameter.example = value
  }
  const ok = operation.responses?.["200"]
  if (links !== undefined && ok !== undefined) ok.links = links
  return operation
}

/**
 * An operation's documentation, declared on its endpoint so that the document cannot drift from
 * it: a one-line summary, a valid example request (a test sends every one), and where its answer
 * leads, so clients and stateful testers can follow a created record to its reads and changes.
 */
export const documented = (summary: string, docs: OperationDocs = {}) =>
  OpenApi.annotations({
    summary,
    transform: (operation) => withDocs(operation as Operation, docs) as Record<string, unknown>
  })
