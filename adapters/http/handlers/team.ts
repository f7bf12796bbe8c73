import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  addMember,
  addRole,
  getInvitation,
  getMember,
  getRole,
  getRolePermissionDetail,
  getRolePermissions,
  grantPermission,
  InvitationCursor,
  inviteMember,
  listInvitations,
  listPermissions,
  removeMember,
  removePermission,
  removeRole,
  revokeInvitation,
  updateMember,
  updateRole
} from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { repeatedReads, toJsonAnswer } from "../read-answers.ts"
import { toInvitationCreatedView } from "../views.ts"
import { asCaller } from "./as-caller.ts"
import { pageResponse } from "./page-response.ts"

export const TeamHandlers = HttpApiBuilder.group(RosterApi, "team", (handlers) =>
  handlers
    .handle("addMember", ({ payload }) => asCaller((actor) => addMember(actor, payload)))
    .handle("addRole", ({ payload }) => asCaller((actor) => addRole(actor, payload)))
    .handle("removePermission", ({ params, payload }) =>
      asCaller((actor) => removePermission(actor, { id: params.id, permissionId: payload.permissionId }))
    )
    .handle("grantPermission", ({ payload }) => asCaller((actor) => grantPermission(actor, payload)))
    .handle("getRolePermissionDetail", ({ params }) =>
      asCaller((actor) => getRolePermissionDetail(actor, params.id))
    )
    .handle("listMembers", ({ query, request }) =>
      asCaller((actor) => repeatedReads["team.listMembers"].answer(actor, query, request.url)).pipe(
        Effect.map(toJsonAnswer)
      )
    )
    .handle("getMember", ({ params }) => asCaller((actor) => getMember(actor, params.id)))
    .handle("updateMember", ({ params, payload }) =>
      asCaller((actor) => updateMember(actor, params.id, payload))
    )
    .handle("removeMember", ({ params }) => asCaller((actor) => removeMember(actor, params.id)))
    .handle("listRoles", ({ query, request }) =>
      asCaller((actor) => repeatedReads["team.listRoles"].answer(actor, query, request.url)).pipe(
        Effect.map(toJsonAnswer)
      )
    )
    .handle("getRole", ({ params }) => asCaller((actor) => getRole(actor, params.id)))
    .handle("getRolePermissions", ({ params }) => asCaller((actor) => getRolePermissions(actor, params.id)))
    .handle("updateRole", ({ params, payload }) => asCaller((actor) => updateRole(actor, params.id, payload)))
    .handle("removeRole", ({ params }) => asCaller((actor) => removeRole(actor, params.id)))
    .handle("listPermissions", () => asCaller(listPermissions))
    .handle("createInvitation", ({ payload }) =>
      asCaller((actor) => inviteMember(actor, payload)).pipe(Effect.map(toInvitationCreatedView))
    )
    .handle("listInvitations", ({ query: { cursor, ...filter }, request }) =>
      asCaller((actor) =>
        listInvitations(actor, cursor === undefined ? filter : { ...filter, after: cursor })
      ).pipe(Effect.map(pageResponse(InvitationCursor, request)))
    )
    .handle("getInvitation", ({ params }) => asCaller((actor) => getInvitation(actor, params.id)))
    .handle("revokeInvitation", ({ params }) => asCaller((actor) => revokeInvitation(actor, params.id)))
)
