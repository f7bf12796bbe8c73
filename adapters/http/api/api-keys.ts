import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  ApiKey,
  ApiKeyCursor,
  ApiKeyId,
  CreateApiKeyInput,
  RotateApiKeyInput,
  UpdateApiKeyInput
} from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { ShownOnceSecret } from "../views.ts"
import { jsonBody } from "./json-body.ts"
import { limit, pageSchemaOf } from "./list-query.ts"
import { Authentication, ReadsTarget, RequiresPermission, ShownOnce } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

/** A key with the key itself: answered when it is made or rotated, never stored. */
export const ApiKeyIssuedView = Schema.Struct({ ...ApiKey.fields, key: ShownOnceSecret })

const params = { id: ApiKeyId }
const exampleId = { id: "key_0001a2b3c4d5e6f7a8b9c0d1" }
const onKey = (operationId: string) => ({ operationId, parameters: { id: "$response.body#/id" } })

/** The organisation's API keys: machine access without the master key or a person's password. */
export class ApiKeysApi extends HttpApiGroup.make("apiKeys")
  .add(
    HttpApiEndpoint.post("createApiKey", "/organization/api-keys", {
      payload: jsonBody(CreateApiKeyInput),
      success: ApiKeyIssuedView,
      error: Problem.UnknownPermission
    })
      .annotate(ShownOnce, ["key"])
      .annotateMerge(
        documented(
          "Create an API key of the organisation, holding permissions (by id or key) within the caller's; the key (rk_…) is answered this once",
          {
            example: { name: "Nightly sync", permissions: ["team.read"] },
            links: { ReadApiKey: onKey("apiKeys.getApiKey"), RevokeApiKey: onKey("apiKeys.revokeApiKey") }
          }
        )
      ),
    HttpApiEndpoint.get("listApiKeys", "/organization/api-keys", {
      query: { limit, cursor: Schema.optionalKey(ApiKeyCursor) },
      success: pageSchemaOf(ApiKey)
    })
      .annotate(RequiresPermission, "organization.api_keys.write")
      .annotateMerge(documented("List the organisation's API keys, oldest first (never the keys)")),
    HttpApiEndpoint.get("getApiKey", "/organization/api-keys/:id", {
      params,
      success: ApiKey,
      error: Problem.NotFound
    })
      .annotate(ReadsTarget, "api_key")
      .annotate(RequiresPermission, "organization.api_keys.write")
      .annotateMerge(documented("Read an API key (never the key)", { params: exampleId })),
    HttpApiEndpoint.patch("updateApiKey", "/organization/api-keys/:id", {
      params,
      payload: jsonBody(UpdateApiKeyInput),
      success: ApiKey,
      error: [Problem.NotFound, Problem.UnknownPermission]
    }).annotateMerge(
      documented("Rename an API key or set its permissions, within the caller's own", {
        params: exampleId,
        example: { permissions: [1, "billing.read"] }
      })
    ),
    HttpApiEndpoint.delete("revokeApiKey", "/organization/api-keys/:id", {
      params,
      success: ApiKey,
      error: Problem.NotFound
    }).annotateMerge(
      documented("Revoke an API key: the next request made with it is refused (401)", { params: exampleId })
    ),
    HttpApiEndpoint.post("rotateApiKey", "/organization/api-keys/:id/rotate", {
      params,
      payload: jsonBody(RotateApiKeyInput),
      success: ApiKeyIssuedView,
      error: Problem.NotFound
    })
      .annotate(ShownOnce, ["key"])
      .annotateMerge(
        documented(
          "Give an API key a new secret, answered this once; the old one keeps working for graceSeconds (0 to 604800, none by default)",
          { params: exampleId, example: { graceSeconds: 3600 } }
        )
      )
  )
  .annotate(RequiresPermission, "organization.api_keys.write")
  .middleware(Authentication)
  .prefix("/api/v1")
  .annotate(
    OpenApi.Description,
    "API keys: an organisation's machine access, each key holding permissions within its creator's"
  ) {}
