import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  confirmTotp,
  enrolTotp,
  mfaStatus,
  regenerateRecoveryCodes,
  removeTotp,
  verifyMfa
} from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { throttledClient } from "../edge/routed.ts"
import { onServices } from "../handed-services.ts"
import { toLoginView } from "../views.ts"
import { asCaller, toCompletion } from "./as-caller.ts"
import { fromClient } from "./from-client.ts"

export const MfaHandlers = HttpApiBuilder.group(RosterApi, "mfa", (handlers) =>
  handlers
    .handle("enrolTotp", ({ payload }) =>
      Effect.flatMap(throttledClient, (client) => asCaller((actor) => enrolTotp(actor, payload, client)))
    )
    .handle("confirmTotp", ({ payload }) => asCaller((actor) => confirmTotp(actor, payload)))
    .handle("mfaStatus", () => asCaller(mfaStatus))
    .handle("regenerateRecoveryCodes", ({ payload }) =>
      Effect.flatMap(throttledClient, (client) =>
        asCaller((actor) => regenerateRecoveryCodes(actor, payload, client))
      )
    )
    .handle("removeTotp", ({ payload }) =>
      Effect.flatMap(throttledClient, (client) =>
        asCaller((actor) => removeTotp(actor, payload, client))
      ).pipe(Effect.as({ message: "TOTP is off; a password alone signs you in again" }))
    )
    .handle("verifyMfa", ({ payload }) =>
      fromClient((client) => onServices(toCompletion(verifyMfa({ ...payload, client })))).pipe(
        Effect.map(toLoginView)
      )
    )
)
