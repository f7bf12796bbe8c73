import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { checkReadiness } from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { onServices } from "../handed-services.ts"
import { toProblem } from "../to-problem.ts"

const ok = { status: "ok" } as const

export const HealthHandlers = HttpApiBuilder.group(RosterApi, "health", (handlers) =>
  handlers
    .handle("live", () => Effect.succeed(ok))
    .handle("ready", () => onServices(checkReadiness()).pipe(Effect.as(ok), Effect.mapError(toProblem)))
)
