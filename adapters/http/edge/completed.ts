import type { AuditEntry } from "../../../core/index.ts"
import { readPathOf } from "./route-table.ts"

const doneMessage = JSON.stringify({
  message: "Done: an earlier attempt with this Idempotency-Key made the change, and it was not made again"
})

/**
 * The answer to a retry whose first attempt made its change (`entry`) without answering: for a
 * route that answers with a message, that it is done; otherwise what the route answers with, the
 * changed record, read as the caller through `route` where the API reads such a target (its
 * current state: a later change shows; see `ReadsTarget`).
 */
export const answerCompleted = (
  entry: AuditEntry,
  request: Request,
  answersMessage: boolean,
  route: (request: Request) => Promise<Response>
): Promise<Response> => {
  const { type, id } = entry.target
  const readPath = readPathOf(type, id)
  if (answersMessage || readPath === undefined) {
    return Promise.resolve(
      new Response(doneMessage, { status: 200, headers: { "content-type": "application/json" } })
    )
  }
  const headers = new Headers()
  const authorization = request.headers.get("authorization")
  if (authorization !== null) headers.set("authorization", authorization)
  // Read where the change was made: a new organisation is read in itself, the rest where the request acted.
  const organization = type === "organization" ? id : request.headers.get("roster-organization")
  if (organization !== null) headers.set("roster-organization", organization)
  return route(new Request(new URL(readPath, request.url), { headers }))
}
