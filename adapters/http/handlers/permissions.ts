import { HttpApiBuilder } from "effect/http-api"
import { declarePermission, retirePermission } from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { asCaller } from "./as-caller.ts"

export const PermissionsHandlers = HttpApiBuilder.group(RosterApi, "permissions", (handlers) =>
  handlers
    .handle("declarePermission", ({ params, payload }) =>
      asCaller((actor) => declarePermission(actor, params.key, payload.description))
    )
    .handle("retirePermission", ({ params }) => asCaller((actor) => retirePermission(actor, params.key)))
)
