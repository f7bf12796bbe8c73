import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  listPasskeys,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  registerPasskey,
  removePasskey,
  renamePasskey,
  secondStepPasskeyOptions,
  signInWithPasskey
} from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { throttledClient } from "../edge/routed.ts"
import { onServices } from "../handed-services.ts"
import { toLoginView } from "../views.ts"
import { asCaller, toCompletion } from "./as-caller.ts"
import { fromClient } from "./from-client.ts"

export const PasskeysHandlers = HttpApiBuilder.group(RosterApi, "passkeys", (handlers) =>
  handlers
    .handle("passkeyOptions", ({ payload }) =>
      Effect.flatMap(throttledClient, (client) =>
        asCaller((actor) => passkeyRegistrationOptions(actor, payload, client))
      )
    )
    .handle("addPasskey", ({ payload }) => asCaller((actor) => registerPasskey(actor, payload)))
    .handle("listPasskeys", () => asCaller(listPasskeys))
    .handle("renamePasskey", ({ params, payload }) =>
      asCaller((actor) => renamePasskey(actor, params.id, payload.name))
    )
    .handle("removePasskey", ({ params, payload }) =>
      Effect.flatMap(throttledClient, (client) =>
        asCaller((actor) => removePasskey(actor, params.id, payload.password, client))
      )
    )
    .handle("passkeySignInOptions", () =>
      fromClient((client) => onServices(toCompletion(passkeySignInOptions(client))))
    )
    .handle("passkeySignIn", ({ payload }) =>
      fromClient((client) => onServices(toCompletion(signInWithPasskey({ ...payload, client })))).pipe(
        Effect.map(toLoginView)
      )
    )
    .handle("secondStepPasskeyOptions", ({ payload }) =>
      onServices(toCompletion(secondStepPasskeyOptions(payload.challenge)))
    )
)
