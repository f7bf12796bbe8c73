import { routeOf } from "../edge/route-table.ts"
import * as Problem from "../problems.ts"
import { addAnswer, type Components, type Operation, problemSchemaRef } from "./idempotency-openapi.ts"

const header = {
  name: "Roster-Organization",
  in: "header",
  required: false,
  description:
    "The organisation the master key (or open local mode) acts on: its id or its slug; the default " +
    "organisation when absent, 404 when it names none. A session acts on its own organisation: naming " +
    "it again is accepted, naming any other is 403. Empty is 400.",
  schema: { type: "string", minLength: 1, maxLength: 128 }
}

/** Declares `Roster-Organization`, and the 404 of a name that matches none, on every operation that authenticates its caller. */
export const declareOrganizationHeader = (
  paths: Record<string, Record<string, Operation>>,
  components: Components
) => {
  const notFound = problemSchemaRef(components, Problem.NotFound)
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (routeOf(method.toUpperCase(), path)?.authenticated !== true) continue
      operation.parameters = [...(operation.parameters ?? []), header]
      addAnswer(operation, "404", notFound, "The Roster-Organization header names no organisation")
    }
  }
}
