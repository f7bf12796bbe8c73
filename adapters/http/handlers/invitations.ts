import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { acceptInvitation, Unauthenticated } from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { credentialsOf } from "../edge/credentials.ts"
import { onServices } from "../handed-services.ts"
import { toLoginView } from "../views.ts"
import { toCompletion } from "./as-caller.ts"
import { fromClient } from "./from-client.ts"

export const InvitationsHandlers = HttpApiBuilder.group(RosterApi, "invitations", (handlers) =>
  handlers.handle("acceptInvitation", ({ payload }) =>
    Effect.flatMap(credentialsOf, ({ bearer }) =>
      fromClient((client) =>
        onServices(
          toCompletion(
            bearer === "malformed"
              ? Effect.fail(new Unauthenticated({ reason: "invalid" }))
              : acceptInvitation(bearer, { ...payload, client })
          )
        )
      )
    ).pipe(Effect.map(toLoginView))
  )
)
