import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { MemberId, SetMemberPasswordInput } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { MessageView } from "../views.ts"
import { jsonBody } from "./json-body.ts"
import { Authentication, RequiresPermission } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

export const ToggleAccountStatusBody = Schema.Struct({
  user_id: MemberId,
  accountActiveStatus: Schema.Boolean
})

export class AdminApi extends HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.post("toggleAccountStatus", "/toggle-account-status", {
      payload: jsonBody(ToggleAccountStatusBody),
      success: MessageView,
      error: [Problem.NotFound, Problem.LastOwner, Problem.AccountShared]
    })
      .annotate(RequiresPermission, "admin.accounts.write")
      .annotateMerge(
        documented("Enable or disable a member's account", {
          example: { user_id: "6f1c2b0e-3d4a-4e5b-9c8d-7a6b5c4d3e2f", accountActiveStatus: false }
        })
      ),
    HttpApiEndpoint.post("setMemberPassword", "/members/:id/password", {
      params: { id: MemberId },
      payload: jsonBody(SetMemberPasswordInput),
      success: MessageView,
      error: [Problem.NotFound, Problem.AccountShared, Problem.BusyWithRetryAfter]
    })
      .annotate(RequiresPermission, "admin.accounts.write")
      .annotateMerge(
        documented("Set a member's password, ending all their sessions", {
          example: { newPassword: "another long passphrase" },
          params: { id: "6f1c2b0e-3d4a-4e5b-9c8d-7a6b5c4d3e2f" }
        })
      ),
    HttpApiEndpoint.get("memberMfaStatus", "/members/:id/mfa", {
      params: { id: MemberId },
      success: Schema.Struct({ totp: Schema.Boolean }),
      error: Problem.NotFound
    })
      .annotate(RequiresPermission, "admin.accounts.write")
      .annotateMerge(
        documented("Tell whether a member's TOTP is on, for one who may clear it (within the ceiling)", {
          params: { id: "6f1c2b0e-3d4a-4e5b-9c8d-7a6b5c4d3e2f" }
        })
      ),
    HttpApiEndpoint.delete("resetMemberMfa", "/members/:id/mfa", {
      params: { id: MemberId },
      success: MessageView,
      error: [Problem.NotFound, Problem.AccountShared]
    })
      .annotate(RequiresPermission, "admin.accounts.write")
      .annotateMerge(
        documented(
          "Clear a member's TOTP and recovery codes (a lost phone): the password alone signs them in",
          {
            params: { id: "6f1c2b0e-3d4a-4e5b-9c8d-7a6b5c4d3e2f" }
          }
        )
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1/admin")
  .annotate(
    OpenApi.Description,
    "Account administration: enabling accounts, setting passwords, clearing a lost second factor"
  ) {}
