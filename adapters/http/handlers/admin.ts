import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { memberMfaStatus, resetMemberMfa, setAccountStatus, setMemberPassword } from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { asCaller } from "./as-caller.ts"

export const AdminHandlers = HttpApiBuilder.group(RosterApi, "admin", (handlers) =>
  handlers
    .handle("toggleAccountStatus", ({ payload }) =>
      asCaller((actor) =>
        setAccountStatus(actor, { memberId: payload.user_id, active: payload.accountActiveStatus })
      ).pipe(
        Effect.map((member) => ({
          message: `The account of ${member.username} is ${member.accountActiveStatus ? "enabled" : "disabled"}`
        }))
      )
    )
    .handle("setMemberPassword", ({ params, payload }) =>
      asCaller((actor) => setMemberPassword(actor, params.id, payload)).pipe(
        Effect.as({ message: "The password is set; every session of that member has ended" })
      )
    )
    .handle("memberMfaStatus", ({ params }) => asCaller((actor) => memberMfaStatus(actor, params.id)))
    .handle("resetMemberMfa", ({ params }) =>
      asCaller((actor) => resetMemberMfa(actor, params.id)).pipe(
        Effect.as({
          message: "The member's TOTP and recovery codes are cleared; their password alone signs them in"
        })
      )
    )
)
