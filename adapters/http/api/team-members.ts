import { HttpApiEndpoint } from "effect/http-api"
import { AddMemberInput, Member, MemberChanges, MemberId } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { jsonBody } from "./json-body.ts"
import { MembersQuery, pageSchemaOf } from "./list-query.ts"
import { ReadsTarget, RequiresPermission } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

const exampleId = { id: "6f1c2b0e-3d4a-4e5b-9c8d-7a6b5c4d3e2f" }

/** The team's members: the endpoints of the `team` group that add, read, change and remove them. */
export const memberEndpoints = [
  HttpApiEndpoint.post("addMember", "/add", {
    payload: jsonBody(AddMemberInput),
    success: Member,
    error: [
      Problem.UnknownRole,
      Problem.DuplicateEmail,
      Problem.DuplicateUsername,
      Problem.BusyWithRetryAfter
    ]
  })
    .annotate(RequiresPermission, "team.members.write")
    .annotateMerge(
      documented("Add a team member", {
        example: {
          username: "ada",
          email: "ada@example.com",
          password: "a long passphrase",
          activestatus: true,
          roleId: 1
        },
        links: {
          ReadMember: { operationId: "team.getMember", parameters: { id: "$response.body#/id" } },
          ChangeMember: { operationId: "team.updateMember", parameters: { id: "$response.body#/id" } },
          RemoveMember: { operationId: "team.removeMember", parameters: { id: "$response.body#/id" } },
          SetPassword: {
            operationId: "admin.setMemberPassword",
            parameters: { id: "$response.body#/id" },
            requestBody: { newPassword: "a new long password" }
          },
          DisableAccount: {
            operationId: "admin.toggleAccountStatus",
            requestBody: { user_id: "$response.body#/id", accountActiveStatus: false }
          }
        }
      })
    ),
  HttpApiEndpoint.get("listMembers", "/members", {
    query: MembersQuery,
    success: pageSchemaOf(Member),
    error: Problem.UnknownPermission
  })
    .annotate(RequiresPermission, "team.read")
    .annotateMerge(documented("List the team's members")),
  HttpApiEndpoint.get("getMember", "/members/:id", {
    params: { id: MemberId },
    success: Member,
    error: Problem.NotFound
  })
    .annotate(ReadsTarget, "member")
    .annotate(RequiresPermission, "team.read")
    .annotateMerge(documented("Read a team member", { params: exampleId })),
  HttpApiEndpoint.patch("updateMember", "/members/:id", {
    params: { id: MemberId },
    payload: jsonBody(MemberChanges),
    success: Member,
    error: [
      Problem.NotFound,
      Problem.UnknownRole,
      Problem.DuplicateEmail,
      Problem.DuplicateUsername,
      Problem.EditConflict,
      Problem.LastOwner,
      Problem.AccountShared
    ]
  })
    .annotate(RequiresPermission, "team.members.write")
    .annotateMerge(
      documented("Change a member's username, e-mail, membership or role", {
        example: { email: "ada@example.org" },
        params: exampleId
      })
    ),
  HttpApiEndpoint.delete("removeMember", "/members/:id", {
    params: { id: MemberId },
    success: Member,
    error: [Problem.NotFound, Problem.LastOwner]
  })
    .annotate(RequiresPermission, "team.members.write")
    .annotateMerge(documented("Remove a team member", { params: exampleId }))
] as const
