import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { AuditAction, AuditCursor, AuditFilter, Rfc3339Instant } from "../../../core/index.ts"
import { AuditEntryView } from "../views.ts"
import { limit, pageSchemaOf } from "./list-query.ts"
import { Authentication, RequiresPermission } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

export const AuditQuery = {
  limit,
  cursor: Schema.optionalKey(AuditCursor),
  action: Schema.optionalKey(AuditAction),
  actorId: AuditFilter.fields.actorId,
  targetId: AuditFilter.fields.targetId,
  since: Schema.optionalKey(Rfc3339Instant)
}

export class AuditApi extends HttpApiGroup.make("audit")
  .add(
    HttpApiEndpoint.get("listEvents", "/events", {
      query: AuditQuery,
      success: pageSchemaOf(AuditEntryView)
    })
      .annotate(RequiresPermission, "audit.read")
      .annotateMerge(documented("List the audit record, newest first"))
  )
  .middleware(Authentication)
  .prefix("/api/v1/audit")
  .annotate(OpenApi.Description, "The audit record: who changed what, and when") {}
