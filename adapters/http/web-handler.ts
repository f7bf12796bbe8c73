import { ByteSize, Context, Effect, Layer, ManagedRuntime } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type {
  AuthSettings,
  IdGenerator,
  LoginThrottleStore,
  MemberStore,
  PasswordHasher,
  PaymentInbox,
  PlanCatalog,
  RolePermissionStore,
  RoleStore,
  SessionStore,
  SessionTokens,
  StoreHealth,
  SubscriptionStore
} from "../../core/index.ts"
import type { WebhookVerifier } from "../payments/webhook-verifier.ts"
import { openApiDocument } from "./api/openapi-document.ts"
import { openApiPath, RosterApi } from "./api/roster-api.ts"
import { rememberClientAddress } from "./edge/client-address.ts"
import { edgeMiddleware, logEntry } from "./edge/edge.ts"
import { type EdgeOptions, makeGuards, toResponse } from "./edge/guards.ts"
import { requestIdOf } from "./edge/request-id.ts"
import { RequestLog } from "./edge/request-log.ts"
import { AdminHandlers } from "./handlers/admin.ts"
import { AuthHandlers } from "./handlers/auth.ts"
import { HealthHandlers } from "./handlers/health.ts"
import { PaymentsHandlers } from "./handlers/payments.ts"
import { PricingHandlers } from "./handlers/pricing.ts"
import { TeamHandlers } from "./handlers/team.ts"
import { AuthenticationLive } from "./middleware/authentication.ts"
import { RequestProblemsLive } from "./middleware/request-problems.ts"

const openApiRoute = (options: EdgeOptions) => {
  const body = JSON.stringify(openApiDocument(options))
  return HttpRouter.add(
    "GET",
    openApiPath,
    Effect.sync(() => HttpServerResponse.text(body, { contentType: "application/json" }))
  )
}

export const rosterRoutes = (options: EdgeOptions) =>
  HttpApiBuilder.layer(RosterApi).pipe(
    Layer.provide([
      TeamHandlers,
      PricingHandlers,
      AdminHandlers,
      AuthHandlers,
      PaymentsHandlers,
      HealthHandlers
    ]),
    Layer.provide([AuthenticationLive, RequestProblemsLive]),
    Layer.merge(openApiRoute(options)),
    Layer.merge(edgeMiddleware),
    // In the context every request starts from, rather than provided to each request.
    Layer.merge(Layer.succeed(HttpIncomingMessage.MaxBodySize)(ByteSize.bytes(options.maxBodyBytes)))
  )

/** The ports and adapters the HTTP service runs on: the core's, the webhook verifier and the request log. */
export type HttpServices =
  | AuthSettings
  | IdGenerator
  | LoginThrottleStore
  | MemberStore
  | PasswordHasher
  | PaymentInbox
  | PlanCatalog
  | RolePermissionStore
  | RoleStore
  | SessionStore
  | SessionTokens
  | StoreHealth
  | SubscriptionStore
  | WebhookVerifier
  | RequestLog

export interface ConnectionInfo {
  /** The peer's address as the server saw it; login throttling counts per address. */
  readonly remoteAddress?: string | undefined
}

export interface WebHandler {
  readonly handler: (request: Request, connection?: ConnectionInfo) => Promise<Response>
  /** Closes what the services opened (the store's connection); call after the server stopped. */
  readonly dispose: () => Promise<void>
}

/** Longer than every id the schemas accept, so those answer for what is too long. */
const maxPathIdLength = 512

const noRequestServices = Context.empty() as Context.Context<HttpServices>

/**
 * The whole HTTP service as a web-standard handler, for any server: Bun, Deno, or a test calling it
 * directly. The services are built once (one store, one connection) and handed to every request.
 */
export const makeWebHandler = async <E>(
  services: Layer.Layer<HttpServices, E>,
  options: EdgeOptions
): Promise<WebHandler> => {
  const runtime = ManagedRuntime.make(services)
  const context = await runtime.context()
  const log = Context.get(context, RequestLog)
  const guard = await makeGuards(options)
  const web = HttpRouter.toWebHandler(
    rosterRoutes(options).pipe(
      // The services join the context every request starts from, so none is added per request.
      Layer.provideMerge(Layer.succeedContext(context)),
      Layer.provide(HttpServer.layerServices)
    ),
    // Paths match exactly as published: case, trailing and doubled slashes included. A path id
    // longer than any id is refused as invalid (400) by the edge, not as an unknown route.
    {
      disableLogger: true,
      routerConfig: {
        caseSensitive: true,
        ignoreTrailingSlash: false,
        ignoreDuplicateSlashes: false,
        maxParamLength: maxPathIdLength
      }
    }
  )
  return {
    handler: (request, connection) => {
      const started = performance.now()
      const admitted = guard(request)
      if (!(admitted instanceof Request)) {
        const requestId = requestIdOf(request.headers.get("x-request-id"))
        log(logEntry(requestId, request.method, new URL(request.url).pathname, started, admitted.status))
        const response = toResponse(admitted)
        response.headers.set("x-request-id", requestId)
        return Promise.resolve(response)
      }
      rememberClientAddress(admitted, connection?.remoteAddress)
      return web.handler(admitted, noRequestServices)
    },
    dispose: async () => {
      await web.dispose()
      await runtime.dispose()
    }
  }
}
