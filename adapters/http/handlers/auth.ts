import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  changeOwnPassword,
  listOwnOrganizations,
  logIn,
  logOut,
  signInMethods,
  signUp
} from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import type { EdgeOptions } from "../edge/options.ts"
import { throttledClient } from "../edge/routed.ts"
import { onServices } from "../handed-services.ts"
import { repeatedReads, toJsonAnswer } from "../read-answers.ts"
import { toLoginAnswer, toLoginView, toMembershipView } from "../views.ts"
import { asCaller, toCompletion } from "./as-caller.ts"
import { fromClient } from "./from-client.ts"
import { accessTokenHandler } from "./tokens.ts"

/** Sessions: sign in, sign out, who am I, one's own password, and access tokens (their issuer from `options`). */
export const authHandlers = (options: EdgeOptions) =>
  HttpApiBuilder.group(RosterApi, "auth", (handlers) =>
    handlers
      .handle("login", ({ payload }) =>
        fromClient((client) => onServices(toCompletion(logIn({ ...payload, client })))).pipe(
          Effect.map(toLoginAnswer)
        )
      )
      .handle("signup", ({ payload }) =>
        fromClient((client) => onServices(toCompletion(signUp({ ...payload, client })))).pipe(
          Effect.map(toLoginView)
        )
      )
      .handle("logout", () => asCaller(logOut))
      .handle("me", ({ request }) =>
        asCaller((actor) => repeatedReads["auth.me"].answer(actor, {}, request.url)).pipe(
          Effect.map(toJsonAnswer)
        )
      )
      .handle("signInMethods", () => onServices(signInMethods))
      .handle("accessToken", accessTokenHandler(options))
      .handle("organizations", () =>
        asCaller((actor) =>
          Effect.map(listOwnOrganizations(actor), (memberships) => memberships.map(toMembershipView))
        )
      )
      .handle("changePassword", ({ payload }) =>
        Effect.flatMap(throttledClient, (client) =>
          asCaller((actor) => changeOwnPassword(actor, payload, client))
        ).pipe(Effect.as({ message: "The password is changed; every other session of yours has ended" }))
      )
  )
