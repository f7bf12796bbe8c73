import { HttpApiGroup, OpenApi } from "effect/http-api"
import { Authentication } from "./middleware.ts"
import { invitationEndpoints } from "./team-invitations.ts"
import { memberEndpoints } from "./team-members.ts"
import { roleEndpoints } from "./team-roles.ts"

export class TeamApi extends HttpApiGroup.make("team")
  .add(...memberEndpoints, ...roleEndpoints, ...invitationEndpoints)
  .middleware(Authentication)
  .prefix("/api/v1/team")
  .annotate(OpenApi.Description, "Members, roles, the permissions roles hold, and invitations") {}
