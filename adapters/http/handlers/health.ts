import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { checkReadiness } from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { onServices } from "../handed-services.ts"
import { jsonAnswer } from "../json-once.ts"
import { toProblem } from "../to-problem.ts"

const ok = { status: "ok" } as const
/** The liveness probe's answer, made once: an orchestrator asks for it every few seconds, for ever. */
const alive = Effect.succeed(jsonAnswer(JSON.stringify(ok)))

export const HealthHandlers = HttpApiBuilder.group(RosterApi, "health", (handlers) =>
  handlers
    .handle("live", () => alive)
    .handle("ready", () => onServices(checkReadiness()).pipe(Effect.as(ok), Effect.mapError(toProblem)))
)
