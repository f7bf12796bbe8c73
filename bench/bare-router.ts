// Below the HttpApi floor: the same endpoint shapes as bare-httpapi.ts on Effect's HttpRouter alone
// (the payload decoded with the same schema, the 409 a JSON problem), to tell what HttpApi itself
// costs a request. `bun bench/in-process.ts` compares it (SUBJECT=router).
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"
import { servedAlone } from "./served-alone.ts"

const RoleInput = Schema.Struct({
  name: Schema.String,
  roleKey: Schema.String,
  activeStatus: Schema.optional(Schema.Boolean)
})
const Grant = Schema.Struct({ roleId: Schema.Int, permissionId: Schema.Int })
const roles = [{ id: 1, name: "Bench", roleKey: "bench", activeStatus: true }]
const conflict = { type: "about:blank", title: "Conflict", status: 409 }

const routes = HttpRouter.addAll([
  HttpRouter.route("GET", "/health/live", HttpServerResponse.jsonUnsafe({ status: "ok" })),
  HttpRouter.route(
    "GET",
    "/api/v1/team/roles",
    Effect.sync(() => HttpServerResponse.jsonUnsafe(roles))
  ),
  HttpRouter.route(
    "POST",
    "/api/v1/team/role/add",
    HttpServerRequest.schemaBodyJson(RoleInput).pipe(
      Effect.as(HttpServerResponse.jsonUnsafe(conflict, { status: 409 })),
      Effect.catch(() => Effect.succeed(HttpServerResponse.empty({ status: 400 })))
    )
  ),
  HttpRouter.route(
    "POST",
    "/api/v1/team/role-permission-detail",
    HttpServerRequest.schemaBodyJson(Grant).pipe(
      Effect.map((grant) =>
        HttpServerResponse.jsonUnsafe({ id: 1, roleId: grant.roleId, permissionIds: [grant.permissionId] })
      ),
      Effect.catch(() => Effect.succeed(HttpServerResponse.empty({ status: 400 })))
    )
  )
])

export const routerWeb = servedAlone(
  HttpRouter.toWebHandler(routes.pipe(Layer.provide(HttpServer.layerServices)), { disableLogger: true })
)
