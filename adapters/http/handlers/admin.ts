import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { setAccountStatus } from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { asCaller } from "./as-caller.ts"

export const AdminHandlers = HttpApiBuilder.group(RosterApi, "admin", (handlers) =>
  handlers.handle("toggleAccountStatus", ({ payload }) =>
    asCaller((actor) =>
      setAccountStatus(actor, { memberId: payload.user_id, active: payload.accountActiveStatus })
    ).pipe(
      Effect.map((member) => ({
        message: `The account of ${member.username} is ${member.accountActiveStatus ? "enabled" : "disabled"}`
      }))
    )
  )
)
