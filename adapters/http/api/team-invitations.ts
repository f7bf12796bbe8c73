import { Schema } from "effect"
import { HttpApiEndpoint } from "effect/http-api"
import {
  InvitationCursor,
  InvitationId,
  InvitationStatus,
  InvitationView,
  NewInvitation
} from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { InvitationCreatedView } from "../views.ts"
import { jsonBody } from "./json-body.ts"
import { limit, pageSchemaOf } from "./list-query.ts"
import { ReadsTarget, RequiresPermission, ShownOnce } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

const exampleId = { id: "inv_0001a2b3c4d5e6f7a8b9c0d1" }

export const InvitationsQuery = {
  limit,
  cursor: Schema.optionalKey(InvitationCursor),
  status: Schema.optionalKey(InvitationStatus)
}

/** Invitations into the team: the endpoints of the `team` group that make, read and revoke them. */
export const invitationEndpoints = [
  HttpApiEndpoint.post("createInvitation", "/invitations", {
    payload: jsonBody(NewInvitation),
    success: InvitationCreatedView,
    error: [Problem.UnknownRole, Problem.AlreadyMember, Problem.MailUnavailable]
  })
    .annotate(RequiresPermission, "team.members.write")
    .annotate(ShownOnce, ["token"])
    .annotateMerge(
      documented("Invite an e-mail into a role; a pending invitation for it is replaced", {
        example: { email: "grace@example.com", roleId: 1 },
        links: {
          ReadInvitation: { operationId: "team.getInvitation", parameters: { id: "$response.body#/id" } },
          RevokeInvitation: { operationId: "team.revokeInvitation", parameters: { id: "$response.body#/id" } }
        }
      })
    ),
  HttpApiEndpoint.get("listInvitations", "/invitations", {
    query: InvitationsQuery,
    success: pageSchemaOf(InvitationView)
  })
    .annotate(RequiresPermission, "team.read")
    .annotateMerge(documented("List the team's invitations, oldest first")),
  HttpApiEndpoint.get("getInvitation", "/invitations/:id", {
    params: { id: InvitationId },
    success: InvitationView,
    error: Problem.NotFound
  })
    .annotate(ReadsTarget, "invitation")
    .annotate(RequiresPermission, "team.read")
    .annotateMerge(documented("Read an invitation", { params: exampleId })),
  HttpApiEndpoint.delete("revokeInvitation", "/invitations/:id", {
    params: { id: InvitationId },
    success: InvitationView,
    error: Problem.NotFound
  })
    .annotate(RequiresPermission, "team.members.write")
    .annotateMerge(
      documented("Revoke a pending invitation: its link is worth nothing from then on", { params: exampleId })
    )
] as const
