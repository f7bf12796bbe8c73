import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  requestEmailChange,
  requestEmailVerification,
  requestPasswordReset,
  resetPassword,
  verifyEmail
} from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { throttledClient } from "../edge/routed.ts"
import { onServices } from "../handed-services.ts"
import { asCaller, toCompletion } from "./as-caller.ts"

const resetMailed = {
  message: "If the address has an active account, a link to set a new password is on its way to it"
}

export const AccountHandlers = HttpApiBuilder.group(RosterApi, "account", (handlers) =>
  handlers
    .handle("forgotPassword", ({ payload }) =>
      Effect.flatMap(throttledClient, (client) =>
        onServices(toCompletion(requestPasswordReset({ ...payload, client })))
      ).pipe(Effect.as(resetMailed))
    )
    .handle("resetPassword", ({ payload }) =>
      onServices(toCompletion(resetPassword(payload))).pipe(
        Effect.as({ message: "The password is set; every session of the account has ended" })
      )
    )
    .handle("requestEmailVerification", () =>
      Effect.flatMap(throttledClient, (client) =>
        asCaller((actor) => requestEmailVerification(actor, client))
      ).pipe(
        Effect.map((sent) => ({
          message: sent
            ? "A verification link is on its way to your address"
            : "Your address is verified already"
        }))
      )
    )
    .handle("requestEmailChange", ({ payload }) =>
      Effect.flatMap(throttledClient, (client) =>
        asCaller((actor) => requestEmailChange(actor, payload, client))
      ).pipe(
        Effect.map((sent) => ({
          message: sent
            ? "A link is on its way to the new address: the account moves when it is followed"
            : "That is the address the account has already"
        }))
      )
    )
    .handle("verifyEmail", ({ payload }) => onServices(toCompletion(verifyEmail(payload))))
)
