// The framework's floor: a bare Effect HttpApi app with Roster's endpoint shapes (a list, a schema
// payload answering a 409 problem, one failing validation, a 200 write) and nothing else: no store,
// no authentication, no edge. Served by bare-server.ts; in-process.ts calls it directly.
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiError,
  HttpApiGroup,
  HttpApiSchema
} from "effect/http-api"
import { servedAlone } from "./served-alone.ts"

const Role = Schema.Struct({
  id: Schema.Int,
  name: Schema.String,
  roleKey: Schema.String,
  activeStatus: Schema.Boolean
})
const RoleInput = Schema.Struct({
  name: Schema.String,
  roleKey: Schema.String,
  activeStatus: Schema.optional(Schema.Boolean)
})
const MemberInput = Schema.Struct({
  username: Schema.String,
  email: Schema.String,
  password: Schema.String,
  activestatus: Schema.Boolean,
  roleId: Schema.Int
})
const Grant = Schema.Struct({ roleId: Schema.Int, permissionId: Schema.Int })
const Record = Schema.Struct({ id: Schema.Int, roleId: Schema.Int, permissionIds: Schema.Array(Schema.Int) })
const json = <S extends Schema.Top>(schema: S) =>
  [schema, schema.pipe(HttpApiSchema.asJson({ contentType: "*/*" }))] as const

class Bare extends HttpApi.make("bare").add(
  HttpApiGroup.make("all").add(
    HttpApiEndpoint.get("live", "/health/live", { success: Schema.Struct({ status: Schema.Literal("ok") }) }),
    HttpApiEndpoint.get("roles", "/api/v1/team/roles", { success: Schema.Array(Role) }),
    HttpApiEndpoint.post("addRole", "/api/v1/team/role/add", {
      payload: json(RoleInput),
      success: Role,
      error: HttpApiError.Conflict
    }),
    HttpApiEndpoint.post("addMember", "/api/v1/team/add", { payload: json(MemberInput), success: Role }),
    HttpApiEndpoint.post("grant", "/api/v1/team/role-permission-detail", {
      payload: json(Grant),
      success: Record
    })
  )
) {}

const role = { id: 1, name: "Bench", roleKey: "bench", activeStatus: true }
const roles = [role]

const handlers = HttpApiBuilder.group(Bare, "all", (h) =>
  h
    .handle("live", () => Effect.succeed({ status: "ok" as const }))
    .handle("roles", () => Effect.succeed(roles))
    .handle("addRole", () => Effect.fail(new HttpApiError.Conflict()))
    .handle("addMember", () => Effect.succeed(role))
    .handle("grant", ({ payload }) =>
      Effect.succeed({ id: 1, roleId: payload.roleId, permissionIds: [payload.permissionId] })
    )
)

export const bareWeb = servedAlone(
  HttpRouter.toWebHandler(
    HttpApiBuilder.layer(Bare).pipe(Layer.provide(handlers), Layer.provide(HttpServer.layerServices)),
    { disableLogger: true }
  )
)
