import { Cause, Effect, Option } from "effect"
import { HttpServerError, HttpServerRespondable, HttpServerResponse } from "effect/http"
import { assembledProblem } from "../assembled-problem.ts"
import * as Problem from "../problems.ts"
import { allowedMethods } from "./route-table.ts"

export const respond = (problem: HttpServerRespondable.Respondable) =>
  HttpServerRespondable.toResponse(problem)

const bodyReadFailure = (defect: unknown) =>
  HttpServerError.isHttpServerError(defect) && defect.reason._tag === "RequestParseError"
    ? defect.reason.reason === "BodyTooLarge"
      ? "too_large"
      : "unreadable"
    : undefined

/** A problem echoes at most this much of the request's path. */
const echoedPathLength = 100

const excerpt = (path: string) =>
  path.length <= echoedPathLength ? path : `${path.slice(0, echoedPathLength)}… (${path.length} characters)`

export const methodNotAllowed = (path: string, allowed: ReadonlyArray<string>) =>
  Effect.map(
    respond(
      assembledProblem(Problem.MethodNotAllowed, { detail: `${excerpt(path)} accepts ${allowed.join(", ")}` })
    ),
    HttpServerResponse.setHeader("allow", allowed.join(", "))
  )

/** What becomes of a failure no handler answered: a problem, never an empty body or internals. */
export const answerUnhandled = (cause: Cause.Cause<unknown>, method: string, path: string) => {
  const failure = Cause.findErrorOption(cause)
  if (
    Option.isSome(failure) &&
    HttpServerError.isHttpServerError(failure.value) &&
    failure.value.reason._tag === "RouteNotFound"
  ) {
    if (failure.value.reason.description?.includes("maxParamLength") === true) {
      return respond(
        assembledProblem(Problem.ValidationFailed, {
          detail: "The request's path is not valid: see errors",
          errors: [{ path: "params", message: "A path id is longer than any id" }]
        })
      )
    }
    const allowed = allowedMethods(path)
    if (allowed.length === 0 || allowed.includes(method)) {
      return respond(assembledProblem(Problem.NotFound, { detail: `No route ${method} ${excerpt(path)}` }))
    }
    return methodNotAllowed(path, allowed)
  }
  const bodyFailure = cause.reasons.map((reason) =>
    Cause.isDieReason(reason) ? bodyReadFailure(reason.defect) : undefined
  )
  if (bodyFailure.includes("too_large")) {
    return respond(
      assembledProblem(Problem.PayloadTooLarge, { detail: "The request body exceeds the size limit" })
    )
  }
  if (bodyFailure.includes("unreadable")) {
    return respond(
      assembledProblem(Problem.ValidationFailed, {
        detail: "The request body could not be read to its end",
        errors: [{ path: "body", message: "Incomplete or unreadable body" }]
      })
    )
  }
  return respond(assembledProblem(Problem.Internal, { detail: "An unexpected error occurred" }))
}
