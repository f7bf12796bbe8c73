import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  CreateWebhookInput,
  Delivery,
  DeliveryCursor,
  DeliveryId,
  DeliveryStatus,
  EventType,
  eventCatalog,
  PermissionKey,
  UpdateWebhookInput,
  WebhookCursor,
  WebhookId,
  WebhookView
} from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { ShownOnceSecret } from "../views.ts"
import { jsonBody } from "./json-body.ts"
import { limit, pageSchemaOf } from "./list-query.ts"
import { Authentication, ReadsTarget, RequiresPermission, ShownOnce } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

/** An endpoint with its signing secret: answered when it is made or its secret rotated, never stored in clear. */
export const WebhookIssuedView = Schema.Struct({ ...WebhookView.fields, secret: ShownOnceSecret })

export const EventTypeView = Schema.Struct({
  type: EventType,
  description: Schema.String,
  /** The permission that reads what the event carries: an endpoint's creator needs it for the endpoint to hear it. */
  permission: PermissionKey,
  /** The JSON Schema of the event's `data`. */
  schema: Schema.Record(Schema.String, Schema.Unknown)
})

/** The catalog as it is served: built once, when the service starts. */
export const eventTypeViews = Object.entries(eventCatalog).map(
  ([type, { description, data, readableWith }]) => {
    const { schema, definitions } = Schema.toJsonSchemaDocument(data)
    return {
      type: type as EventType,
      description,
      permission: readableWith,
      schema: Object.keys(definitions).length === 0 ? { ...schema } : { ...schema, $defs: definitions }
    }
  }
)

const params = { id: WebhookId }
const exampleId = { id: "whk_0001a2b3c4d5e6f7a8b9c0d1" }
const onWebhook = (operationId: string) => ({ operationId, parameters: { id: "$response.body#/id" } })

/** The organisation's webhook endpoints: where its events are posted, signed, with their deliveries. */
export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.get("listEventTypes", "/event-types", {
      success: Schema.Array(EventTypeView)
    }).annotateMerge(documented("List the event types Roster sends, each with the JSON Schema of its data")),
    HttpApiEndpoint.post("createWebhook", "/organization/webhooks", {
      payload: jsonBody(CreateWebhookInput),
      success: WebhookIssuedView,
      error: Problem.WebhookLimit
    })
      .annotate(ShownOnce, ["secret"])
      .annotate(RequiresPermission, "organization.webhooks.write")
      .annotateMerge(
        documented(
          'Register an endpoint for some event types (or ["*"] for all); its signing secret (whsec_…) is answered this once',
          {
            example: { url: "https://example.com/roster-events", events: ["member.removed"] },
            links: {
              ReadWebhook: onWebhook("webhooks.getWebhook"),
              TestWebhook: onWebhook("webhooks.testWebhook")
            }
          }
        )
      ),
    HttpApiEndpoint.get("listWebhooks", "/organization/webhooks", {
      query: { limit, cursor: Schema.optionalKey(WebhookCursor) },
      success: pageSchemaOf(WebhookView)
    })
      .annotate(RequiresPermission, "team.read")
      .annotateMerge(documented("List the organisation's endpoints, oldest first (never their secrets)")),
    HttpApiEndpoint.get("getWebhook", "/organization/webhooks/:id", {
      params,
      success: WebhookView,
      error: Problem.NotFound
    })
      .annotate(ReadsTarget, "webhook")
      .annotate(RequiresPermission, "team.read")
      .annotateMerge(documented("Read an endpoint (never its secret)", { params: exampleId })),
    HttpApiEndpoint.patch("updateWebhook", "/organization/webhooks/:id", {
      params,
      payload: jsonBody(UpdateWebhookInput),
      success: WebhookView,
      error: Problem.NotFound
    })
      .annotate(RequiresPermission, "organization.webhooks.write")
      .annotateMerge(
        documented("Change an endpoint's URL, events or description, or enable or disable it", {
          params: exampleId,
          example: { enabled: true }
        })
      ),
    HttpApiEndpoint.delete("deleteWebhook", "/organization/webhooks/:id", {
      params,
      success: WebhookView,
      error: Problem.NotFound
    })
      .annotate(RequiresPermission, "organization.webhooks.write")
      .annotateMerge(documented("Delete an endpoint with its deliveries", { params: exampleId })),
    HttpApiEndpoint.post("rotateWebhookSecret", "/organization/webhooks/:id/rotate-secret", {
      params,
      success: WebhookIssuedView,
      error: Problem.NotFound
    })
      .annotate(ShownOnce, ["secret"])
      .annotate(RequiresPermission, "organization.webhooks.write")
      .annotateMerge(
        documented(
          "Give an endpoint a new signing secret, answered this once; for 24 h messages carry both signatures",
          {
            params: exampleId
          }
        )
      ),
    HttpApiEndpoint.post("testWebhook", "/organization/webhooks/:id/test", {
      params,
      success: Delivery,
      error: Problem.NotFound
    })
      .annotate(RequiresPermission, "organization.webhooks.write")
      .annotateMerge(
        documented("Send the endpoint a webhook.test event now; answers its delivery", { params: exampleId })
      ),
    HttpApiEndpoint.get("listDeliveries", "/organization/webhooks/:id/deliveries", {
      params,
      query: {
        limit,
        cursor: Schema.optionalKey(DeliveryCursor),
        status: Schema.optionalKey(DeliveryStatus)
      },
      success: pageSchemaOf(Delivery),
      error: Problem.NotFound
    })
      .annotate(RequiresPermission, "team.read")
      .annotateMerge(
        documented("List an endpoint's deliveries, newest first, of one status when asked", {
          params: exampleId
        })
      ),
    HttpApiEndpoint.post("retryDelivery", "/organization/webhooks/:id/deliveries/:deliveryId/retry", {
      params: { id: WebhookId, deliveryId: DeliveryId },
      success: Delivery,
      error: Problem.NotFound
    })
      .annotate(RequiresPermission, "organization.webhooks.write")
      .annotateMerge(
        documented("Send a delivery again now, whatever it came to", {
          params: { ...exampleId, deliveryId: "dlv_0001a2b3c4d5e6f7a8b9c0d1" }
        })
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
  .annotate(
    OpenApi.Description,
    "Outbound events: endpoints the organisation's changes are posted to, signed by Standard Webhooks, and their deliveries"
  ) {}
