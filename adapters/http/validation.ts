import { type Schema, SchemaIssue } from "effect"
import { assembledProblem } from "./assembled-problem.ts"
import { ValidationFailed } from "./problems.ts"

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const segment = (part: PropertyKey | { readonly key: PropertyKey }) =>
  String(typeof part === "object" && part !== null ? part.key : part)

/** Every issue of a decoding failure, each with its path inside the named part of the request. */
export const validationFailed = (slot: string, error: Schema.SchemaError) =>
  assembledProblem(ValidationFailed, {
    detail: `The request's ${slot} is not valid: see errors`,
    errors: formatIssues(error.issue).issues.map((issue) => ({
      path: [slot, ...(issue.path ?? []).map(segment)].join("."),
      message: issue.message
    }))
  })
