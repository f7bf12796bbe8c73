import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { AuditAction, AuditCursor, AuditFilter } from "../../../core/index.ts"
import { AuditEntryView } from "../views.ts"
import { limit, pageSchemaOf } from "./list-query.ts"
import { Authentication } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

/**
 * An instant in RFC 3339 form only: the runtime's date parser alone takes `0.5` or `March 7` too,
 * which no client should find accepted.
 */
const instant = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/u, {
    expected: "an RFC 3339 date-time such as 2026-11-23T08:00:00Z"
  })
).pipe(Schema.decodeTo(Schema.DateTimeUtcFromString))

export const AuditQuery = {
  limit,
  cursor: Schema.optionalKey(AuditCursor),
  action: Schema.optionalKey(AuditAction),
  actorId: AuditFilter.fields.actorId,
  targetId: AuditFilter.fields.targetId,
  since: Schema.optionalKey(instant)
}

export class AuditApi extends HttpApiGroup.make("audit")
  .add(
    HttpApiEndpoint.get("listEvents", "/events", {
      query: AuditQuery,
      success: pageSchemaOf(AuditEntryView)
    }).annotateMerge(documented("List the audit record, newest first"))
  )
  .middleware(Authentication)
  .prefix("/api/v1/audit")
  .annotate(OpenApi.Description, "The audit record: who changed what, and when") {}
