import type { IncomingMessage, ServerResponse } from "node:http"
import * as Problem from "./problems.ts"

/**
 * What a body parser in front of Roster throws when it refuses a body (Express's `express.json()`,
 * body-parser, Koa's co-body): a `type` such as `entity.parse.failed`, its HTTP `status`, and, for
 * a body that did not parse, the text it read (`body`).
 */
interface ParserError {
  readonly type: string
  readonly status?: number
  readonly body?: unknown
}

const parserErrorTypes = /^(?:entity|request|charset|encoding|parameters)\./u

const isParserError = (error: unknown): error is ParserError =>
  typeof error === "object" &&
  error !== null &&
  typeof (error as { type?: unknown }).type === "string" &&
  parserErrorTypes.test((error as { type: string }).type)

/** The answers for a refusal that left no body to hand on, made once. */
const refusals = {
  413: JSON.stringify(
    new Problem.PayloadTooLarge({
      detail: "The request body exceeds the limit of the framework's body parser in front of Roster"
    })
  ),
  415: JSON.stringify(
    new Problem.UnsupportedMediaType({ detail: "Request bodies are JSON in UTF-8, without Content-Encoding" })
  ),
  400: JSON.stringify(
    new Problem.ValidationFailed({
      detail: "The request's body could not be read",
      errors: [{ path: "body", message: "Expected a whole JSON body" }]
    })
  )
}

const answerHeaders = {
  "content-type": "application/problem+json",
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
  connection: "close"
}

/**
 * An Express error-handling middleware for Roster's paths (`app.use("/roster", roster,
 * roster.parserErrors)`): a body the app's parser refused is answered by Roster, as Roster answers
 * it when it reads the body itself. A body that did not parse is handed on as the text it was, for
 * Roster's own problem (400 `validation_failed`, naming the body); one too large, in another
 * charset or cut short is answered by the problem of its kind. Any other error goes on to `next`.
 */
export const parserErrorsOf =
  (handle: (incoming: IncomingMessage, outgoing: ServerResponse) => void) =>
  (error: unknown, incoming: IncomingMessage, outgoing: ServerResponse, next: (error?: unknown) => void) => {
    if (!isParserError(error) || outgoing.headersSent) return next(error)
    if (typeof error.body === "string")
      return handle(Object.assign(incoming, { rawBody: error.body }), outgoing)
    const status = error.status === 413 || error.status === 415 ? error.status : 400
    outgoing.writeHead(status, answerHeaders).end(refusals[status])
  }
