import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as Problem from "../problems.ts"
import { documented } from "./operation-docs.ts"

const Status = Schema.Struct({ status: Schema.Literal("ok") })

export class HealthApi extends HttpApiGroup.make("health")
  .add(
    HttpApiEndpoint.get("live", "/live", { success: Status }).annotateMerge(
      documented("Liveness: the process answers")
    ),
    HttpApiEndpoint.get("ready", "/ready", { success: Status, error: Problem.Unavailable }).annotateMerge(
      documented("Readiness: the store answers")
    )
  )
  .prefix("/health")
  .annotate(OpenApi.Description, "Liveness and readiness probes") {}
