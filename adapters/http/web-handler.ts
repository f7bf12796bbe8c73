import { Context, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { openApiPath, RosterApi } from "./api/roster-api.ts"
import { type EdgeOptions, edgeMiddleware } from "./edge/edge.ts"
import { ClientAddress } from "./edge/request-log.ts"
import { AdminHandlers } from "./handlers/admin.ts"
import { AuthHandlers } from "./handlers/auth.ts"
import { HealthHandlers } from "./handlers/health.ts"
import { PaymentsHandlers } from "./handlers/payments.ts"
import { PricingHandlers } from "./handlers/pricing.ts"
import { TeamHandlers } from "./handlers/team.ts"
import { AuthenticationLive } from "./middleware/authentication.ts"
import { RequestProblemsLive } from "./middleware/request-problems.ts"

export const rosterRoutes = (options: EdgeOptions) =>
  HttpApiBuilder.layer(RosterApi, { openapiPath: openApiPath }).pipe(
    Layer.provide([
      TeamHandlers,
      PricingHandlers,
      AdminHandlers,
      AuthHandlers,
      PaymentsHandlers,
      HealthHandlers
    ]),
    Layer.provide([AuthenticationLive, RequestProblemsLive]),
    Layer.merge(edgeMiddleware(options))
  )

type RouteServices = Layer.Services<ReturnType<typeof rosterRoutes>>

export interface ConnectionInfo {
  /** The peer's address as the server saw it; login throttling counts per address. */
  readonly remoteAddress?: string | undefined
}

export interface WebHandler {
  readonly handler: (request: Request, connection?: ConnectionInfo) => Promise<Response>
  /** Closes what the services opened (the store's connection); call after the server stopped. */
  readonly dispose: () => Promise<void>
}

/** The whole HTTP service as a web-standard handler, for any server: Bun, Deno, or a test calling it directly. */
export const makeWebHandler = <E>(
  services: Layer.Layer<Exclude<RouteServices, HttpRouter.HttpRouter>, E>,
  options: EdgeOptions
): WebHandler => {
  const { handler, dispose } = HttpRouter.toWebHandler(
    rosterRoutes(options).pipe(Layer.provide(services), Layer.provide(HttpServer.layerServices)),
    { disableLogger: true }
  )
  return {
    handler: (request, connection) =>
      handler(request, Context.make(ClientAddress, connection?.remoteAddress)),
    dispose
  }
}
