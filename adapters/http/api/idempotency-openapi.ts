import { Schema } from "effect"
import { routeOf } from "../edge/route-table.ts"
import * as Problem from "../problems.ts"

type Content = { schema?: { $ref?: string; anyOf?: Array<unknown> } }
type Response = { description?: string; content?: Record<string, Content> }
export type Operation = {
  parameters?: Array<object>
  responses?: Record<string, Response>
}
export type Components = { schemas?: Record<string, object> }

const header = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes a retry safe: a repeat with the same key and body within 24 h answers the first answer again " +
    "(with `Idempotent-Replayed: true`) and runs nothing. Keys are per principal (the account or the master " +
    "key), and a stored answer is replayed only once the repeat has authenticated and still holds the " +
    "operation's permission.",
  schema: { type: "string", minLength: 1, maxLength: 255 }
}

const problems = [
  ["409", Problem.RequestInProgress, "A request with this Idempotency-Key is still running"],
  ["422", Problem.IdempotencyKeyReused, "The Idempotency-Key was used for another request"]
] as const

/** Adds `problem` as one more possible answer of `status`, whatever the operation declared there. */
export const addAnswer = (operation: Operation, status: string, ref: string, description: string) => {
  operation.responses ??= {}
  const responses = operation.responses
  responses[status] ??= { description: "", content: {} }
  const response = responses[status]
  response.description = response.description ? `${response.description} | ${description}` : description
  response.content ??= {}
  const content = response.content
  content["application/problem+json"] ??= {}
  const problem = content["application/problem+json"]
  const existing = problem.schema
  problem.schema =
    existing === undefined ? { $ref: ref } : { anyOf: [...(existing.anyOf ?? [existing]), { $ref: ref }] }
}

/** Puts a problem's schema among the document's components; answers its reference. */
export const problemSchemaRef = (components: Components, problem: Schema.Top) => {
  components.schemas ??= {}
  const { definitions } = Schema.toJsonSchemaDocument(problem)
  Object.assign(components.schemas, definitions)
  return `#/components/schemas/${Object.keys(definitions)[0]}`
}

/**
 * Declares `Idempotency-Key` and its two refusals on every POST and PATCH that authenticates its
 * caller: login and the webhook ignore the header.
 */
export const declareIdempotency = (
  paths: Record<string, Record<string, Operation>>,
  components: Components
) => {
  const answers = problems.map(([status, problem, description]) => ({
    status,
    ref: problemSchemaRef(components, problem),
    description
  }))
  for (const [path, item] of Object.entries(paths)) {
    for (const method of ["post", "patch"]) {
      const operation = item[method]
      if (operation === undefined || routeOf(method.toUpperCase(), path)?.authenticated !== true) continue
      operation.parameters = [...(operation.parameters ?? []), header]
      for (const { status, ref, description } of answers) addAnswer(operation, status, ref, description)
    }
  }
}
