import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  changeOwnPassword,
  currentOrganization,
  listOwnOrganizations,
  logIn,
  logOut,
  signInMethods,
  signUp
} from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { throttledClient } from "../edge/routed.ts"
import { onServices } from "../handed-services.ts"
import { whoAmIAnswer } from "../member-answers.ts"
import { toLoginAnswer, toLoginView, toMembershipView, toWhoAmIView } from "../views.ts"
import { asCaller, toCompletion } from "./as-caller.ts"
import { fromClient } from "./from-client.ts"

export const AuthHandlers = HttpApiBuilder.group(RosterApi, "auth", (handlers) =>
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
    .handle("me", () =>
      asCaller((actor) =>
        Effect.map(currentOrganization, (organization) => whoAmIAnswer(toWhoAmIView(actor, organization)))
      )
    )
    .handle("signInMethods", () => onServices(signInMethods))
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
