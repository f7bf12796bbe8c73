import { Effect } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { RequestProblems } from "../api/middleware.ts"
import { validationFailed } from "../validation.ts"

const slotNames = { Params: "params", Headers: "headers", Query: "query", Payload: "body" } as const

export const requestProblemsLayer = HttpApiMiddleware.layerSchemaErrorTransform(RequestProblems, (error) =>
  error.kind === "Body" || error.kind === "ResponseHeaders"
    ? // The request was fine; encoding our own answer failed: a bug, answered as a defect.
      Effect.die(error)
    : Effect.fail(validationFailed(slotNames[error.kind], error.cause))
)
