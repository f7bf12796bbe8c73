import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import * as Problem from "../problems.ts"

const Status = Schema.Struct({ status: Schema.Literal("ok") })

export class HealthApi extends HttpApiGroup.make("health")
  .add(
    HttpApiEndpoint.get("live", "/live", { success: Status }),
    HttpApiEndpoint.get("ready", "/ready", { success: Status, error: Problem.Unavailable })
  )
  .prefix("/health") {}
