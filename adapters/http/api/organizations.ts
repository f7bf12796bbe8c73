import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  NewOrganization,
  Organization,
  OrganizationChanges,
  OrganizationCursor
} from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { jsonBody } from "./json-body.ts"
import { limit, pageSchemaOf } from "./list-query.ts"
import { Authentication, ReadsTarget, RequiresPermission } from "./middleware.ts"
import { documented } from "./operation-docs.ts"
import { scimTokenEndpoints } from "./scim-tokens.ts"

export const OrganizationsQuery = {
  limit,
  cursor: Schema.optionalKey(OrganizationCursor),
  q: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 100)))
}

/** The deployment's organisations (the operator's) and the caller's own. */
export class OrganizationsApi extends HttpApiGroup.make("organizations")
  .add(
    HttpApiEndpoint.post("createOrganization", "/organizations", {
      payload: jsonBody(NewOrganization),
      success: Organization,
      error: Problem.DuplicateSlug
    }).annotateMerge(
      documented("Create an organisation, with its Owner role holding every permission (master key)", {
        example: { name: "Acme", slug: "acme" },
        links: { ReadOrganizations: { operationId: "organizations.listOrganizations" } }
      })
    ),
    HttpApiEndpoint.get("listOrganizations", "/organizations", {
      query: OrganizationsQuery,
      success: pageSchemaOf(Organization)
    }).annotateMerge(documented("List the deployment's organisations, oldest first (master key)")),
    HttpApiEndpoint.get("getOrganization", "/organization", {
      success: Organization
    })
      .annotate(ReadsTarget, "organization")
      .annotate(RequiresPermission, "team.read")
      .annotateMerge(documented("Read the caller's organisation")),
    HttpApiEndpoint.patch("updateOrganization", "/organization", {
      payload: jsonBody(OrganizationChanges),
      success: Organization,
      error: Problem.UnknownRole
    })
      .annotate(RequiresPermission, "organization.write")
      .annotateMerge(
        documented("Rename the caller's organisation, or set the role of members provisioned without one", {
          example: { name: "Acme Corporation" }
        })
      ),
    HttpApiEndpoint.delete("deleteOrganization", "/organization", {
      success: Organization,
      error: [Problem.SubscriptionActive]
    })
      // Needed first; beyond it, the caller must hold the whole catalog (an owner).
      .annotate(RequiresPermission, "organization.write")
      .annotateMerge(
        documented(
          "Delete the caller's organisation with its members, roles and records; its audit record stays. Only an owner (every permission of the catalog) or the master key"
        )
      ),
    ...scimTokenEndpoints
  )
  .middleware(Authentication)
  .prefix("/api/v1")
  .annotate(
    OpenApi.Description,
    "Organisations: each has its own team, roles, subscription and audit record"
  ) {}
