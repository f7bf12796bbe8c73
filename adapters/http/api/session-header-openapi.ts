import { startingPaths } from "../edge/session-cookie.ts"
import type { Operation } from "./idempotency-openapi.ts"

const header = {
  name: "Roster-Session",
  in: "header",
  required: false,
  description:
    "`cookie`: from the service's own pages (its console), the session is set as an HttpOnly, " +
    "SameSite=Strict cookie, and the answer's `token` is empty. Any other value, or none: the token " +
    "is answered.",
  schema: { type: "string", enum: ["cookie"] }
}

/** Declares `Roster-Session` on the operations that start a session. */
export const declareSessionHeader = (paths: Record<string, Record<string, Operation>>) => {
  for (const [path, item] of Object.entries(paths)) {
    if (!startingPaths.has(path)) continue
    for (const operation of Object.values(item)) {
      operation.parameters = [...(operation.parameters ?? []), header]
    }
  }
}
