import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ProductPermission, ProductPermissionDescription, ProductPermissionKey } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { jsonBody } from "./json-body.ts"
import { Authentication } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

const keyParam = { key: ProductPermissionKey }

/** The product's own permissions, declared and retired by the operator (master key alone). */
export class PermissionsApi extends HttpApiGroup.make("permissions")
  .add(
    HttpApiEndpoint.put("declarePermission", "/permissions/:key", {
      params: keyParam,
      payload: jsonBody(Schema.Struct({ description: ProductPermissionDescription })),
      success: ProductPermission
    }).annotateMerge(
      documented("Declare a product permission, or change its description, idempotently (master key)", {
        example: { description: "Delete projects" },
        params: { key: "projects.delete" }
      })
    ),
    HttpApiEndpoint.delete("retirePermission", "/permissions/:key", {
      params: keyParam,
      success: ProductPermission,
      error: [Problem.NotFound, Problem.PermissionInUse]
    }).annotateMerge(
      documented("Retire a product permission no role, API key or SCIM token holds (master key)", {
        params: { key: "projects.delete" }
      })
    )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
  .annotate(OpenApi.Description, "The product's own permissions, granted by roles like Roster's") {}
