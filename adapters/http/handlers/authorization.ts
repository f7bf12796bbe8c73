import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { RosterApi } from "../api/roster-api.ts"
import { authorizeAnswer } from "../call-answers.ts"
import { toJsonAnswer } from "../read-answers.ts"
import { asCaller } from "./as-caller.ts"

/** `POST /authorize`: the core's question, answered as asked; changes nothing, audits nothing. */
export const AuthorizationHandlers = HttpApiBuilder.group(RosterApi, "authorization", (handlers) =>
  handlers.handle("authorize", ({ payload }) =>
    Effect.map(
      asCaller((actor) => authorizeAnswer(actor, payload)),
      toJsonAnswer
    )
  )
)
