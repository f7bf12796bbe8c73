import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { MemberId, SetMemberPasswordInput } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { MessageView } from "../views.ts"
import { jsonBody } from "./json-body.ts"
import { Authentication, RequiresPermission } from "./middleware.ts"

export const ToggleAccountStatusBody = Schema.Struct({
  user_id: MemberId,
  accountActiveStatus: Schema.Boolean
})

export class AdminApi extends HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.post("toggleAccountStatus", "/toggle-account-status", {
      payload: jsonBody(ToggleAccountStatusBody),
      success: MessageView,
      error: [Problem.NotFound, Problem.LastOwner]
    }).annotate(RequiresPermission, "admin.accounts.write"),
    HttpApiEndpoint.post("setMemberPassword", "/members/:id/password", {
      params: { id: MemberId },
      payload: jsonBody(SetMemberPasswordInput),
      success: MessageView,
      error: [Problem.NotFound, Problem.BusyWithRetryAfter]
    }).annotate(RequiresPermission, "admin.accounts.write")
  )
  .middleware(Authentication)
  .prefix("/api/v1/admin") {}
