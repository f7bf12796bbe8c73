import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { type AuthorizationResult, authorize } from "../../../core/index.ts"
import { Metrics } from "../../metrics/recorder.ts"
import { RosterApi } from "../api/roster-api.ts"
import { asCaller } from "./as-caller.ts"

/** Counts the answers, allowed and denied, when metrics are on. */
const counted = (results: ReadonlyArray<AuthorizationResult>) =>
  Effect.map(Metrics, (metrics) => {
    if (metrics === undefined) return { results }
    const allowed = results.filter((result) => result.allowed).length
    metrics.authorizeChecks(true, allowed)
    metrics.authorizeChecks(false, results.length - allowed)
    return { results }
  })

/** `POST /authorize`: the core's question, answered as asked; changes nothing, audits nothing. */
export const AuthorizationHandlers = HttpApiBuilder.group(RosterApi, "authorization", (handlers) =>
  handlers.handle("authorize", ({ payload }) =>
    Effect.flatMap(
      asCaller((actor) => authorize(actor, payload)),
      counted
    )
  )
)
