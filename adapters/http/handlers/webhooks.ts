import { Effect, type Redacted } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  createWebhook,
  DeliveryCursor,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
  WebhookCursor,
  type WebhookView
} from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { eventTypeViews } from "../api/webhooks.ts"
import { asCaller } from "./as-caller.ts"
import { pageResponse } from "./page-response.ts"

const withSecret = Effect.map(
  ({ webhook, secret }: { webhook: WebhookView; secret: Redacted.Redacted<string> }) => ({
    ...webhook,
    secret
  })
)

export const WebhooksHandlers = HttpApiBuilder.group(RosterApi, "webhooks", (handlers) =>
  handlers
    .handle("listEventTypes", () => Effect.succeed(eventTypeViews))
    .handle("createWebhook", ({ payload }) =>
      asCaller((actor) => createWebhook(actor, payload)).pipe(withSecret)
    )
    .handle("listWebhooks", ({ query: { cursor, ...rest }, request }) =>
      asCaller((actor) => listWebhooks(actor, cursor === undefined ? rest : { ...rest, after: cursor })).pipe(
        Effect.map(pageResponse(WebhookCursor, request))
      )
    )
    .handle("getWebhook", ({ params }) => asCaller((actor) => getWebhook(actor, params.id)))
    .handle("updateWebhook", ({ params, payload }) =>
      asCaller((actor) => updateWebhook(actor, params.id, payload))
    )
    .handle("deleteWebhook", ({ params }) => asCaller((actor) => deleteWebhook(actor, params.id)))
    .handle("rotateWebhookSecret", ({ params }) =>
      asCaller((actor) => rotateWebhookSecret(actor, params.id)).pipe(withSecret)
    )
    .handle("testWebhook", ({ params }) => asCaller((actor) => sendTestEvent(actor, params.id)))
    .handle("listDeliveries", ({ params, query: { cursor, ...rest }, request }) =>
      asCaller((actor) =>
        listDeliveries(actor, params.id, cursor === undefined ? rest : { ...rest, after: cursor })
      ).pipe(Effect.map(pageResponse(DeliveryCursor, request)))
    )
    .handle("retryDelivery", ({ params }) =>
      asCaller((actor) => retryDelivery(actor, params.id, params.deliveryId))
    )
)
