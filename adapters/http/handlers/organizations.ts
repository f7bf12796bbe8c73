import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  createOrganization,
  createScimToken,
  deleteOrganization,
  getOrganization,
  listOrganizations,
  listScimTokens,
  OrganizationCursor,
  revokeScimToken,
  updateOrganization
} from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { asCaller } from "./as-caller.ts"
import { pageResponse } from "./page-response.ts"

export const OrganizationsHandlers = HttpApiBuilder.group(RosterApi, "organizations", (handlers) =>
  handlers
    .handle("createOrganization", ({ payload }) => asCaller((actor) => createOrganization(actor, payload)))
    .handle("listOrganizations", ({ query: { cursor, ...rest }, request }) =>
      asCaller((actor) =>
        listOrganizations(actor, cursor === undefined ? rest : { ...rest, after: cursor })
      ).pipe(Effect.map(pageResponse(OrganizationCursor, request)))
    )
    .handle("getOrganization", () => asCaller(getOrganization))
    .handle("updateOrganization", ({ payload }) => asCaller((actor) => updateOrganization(actor, payload)))
    .handle("deleteOrganization", () => asCaller(deleteOrganization))
    .handle("createScimToken", ({ payload }) =>
      asCaller((actor) => createScimToken(actor, payload)).pipe(
        Effect.map(({ scimToken, token }) => ({ ...scimToken, token }))
      )
    )
    .handle("listScimTokens", () => asCaller(listScimTokens))
    .handle("revokeScimToken", ({ params }) => asCaller((actor) => revokeScimToken(actor, params.id)))
)
