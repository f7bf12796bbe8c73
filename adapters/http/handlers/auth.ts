import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { logIn, logOut } from "../../../core/index.ts"
import { CurrentPrincipal } from "../api/middleware.ts"
import { RosterApi } from "../api/roster-api.ts"
import { toProblem } from "../to-problem.ts"
import { toWhoAmIView } from "../views.ts"
import { asCaller } from "./as-caller.ts"

/** Callers whose address the server cannot tell share one throttling bucket. */
const unknownClient = "unknown"

export const AuthHandlers = HttpApiBuilder.group(RosterApi, "auth", (handlers) =>
  handlers
    .handle("login", ({ payload, request }) =>
      logIn({ ...payload, client: Option.getOrElse(request.remoteAddress, () => unknownClient) }).pipe(
        Effect.mapError(toProblem)
      )
    )
    .handle("logout", () => asCaller(logOut))
    .handle("me", () => CurrentPrincipal.useSync(toWhoAmIView))
)
