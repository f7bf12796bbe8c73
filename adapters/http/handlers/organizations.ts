import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  createOrganization,
  deleteOrganization,
  getOrganization,
  listOrganizations,
  OrganizationCursor,
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
)
