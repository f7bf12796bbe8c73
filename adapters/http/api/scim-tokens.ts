import { Schema } from "effect"
import { HttpApiEndpoint } from "effect/http-api"
import { CreateScimTokenInput, ScimToken, ScimTokenId } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { ShownOnceSecret } from "../views.ts"
import { jsonBody } from "./json-body.ts"
import { ReadsTarget, RequiresPermission, ShownOnce } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

/** A new SCIM token with the token itself: answered this once, never stored. */
export const ScimTokenCreatedView = Schema.Struct({
  ...ScimToken.fields,
  token: ShownOnceSecret
})

const exampleId = { id: "scim_0001a2b3c4d5e6f7a8b9c0d1" }

/** The organisation's SCIM tokens: the endpoints of the `organizations` group that make, list and revoke them. */
export const scimTokenEndpoints = [
  HttpApiEndpoint.post("createScimToken", "/organization/scim-tokens", {
    payload: jsonBody(CreateScimTokenInput),
    success: ScimTokenCreatedView
  })
    .annotate(RequiresPermission, "organization.write")
    .annotate(ShownOnce, ["token"])
    .annotateMerge(
      documented(
        "Create a token for the organisation's identity provider to call /scim/v2 with, acting with the caller's permissions less organization.write; the token is answered this once",
        { example: { name: "Okta" } }
      )
    ),
  HttpApiEndpoint.get("listScimTokens", "/organization/scim-tokens", {
    success: Schema.Array(ScimToken)
  })
    .annotate(ReadsTarget, "scim_token")
    .annotate(RequiresPermission, "organization.write")
    .annotateMerge(documented("List the organisation's SCIM tokens, oldest first (never the tokens)")),
  HttpApiEndpoint.delete("revokeScimToken", "/organization/scim-tokens/:id", {
    params: { id: ScimTokenId },
    success: ScimToken,
    error: Problem.NotFound
  })
    .annotate(RequiresPermission, "organization.write")
    .annotateMerge(
      documented("Revoke a SCIM token: the identity provider holding it is refused from then on", {
        params: exampleId
      })
    )
] as const
